"""`with_fields` makes the copy `model_copy(update=...)` makes."""

from __future__ import annotations

from pi_core.messages import AssistantMessage, TextContent, ToolCall
from pi_core.messages.replace import with_fields


def _call() -> ToolCall:
    return ToolCall.model_validate(
        {"type": "toolCall", "id": "call_1|fc_1", "name": "read", "arguments": {"path": "a"},
         "thoughtSignature": "sig", "vendorField": {"kept": True}}
    )  # fmt: skip


def test_a_tool_call_copy_equals_model_copy() -> None:
    call = _call()
    fast = with_fields(call, id="call_1", thought_signature=None)
    slow = call.model_copy(update={"id": "call_1", "thought_signature": None})
    assert fast.__dict__ == slow.__dict__
    assert fast.__pydantic_extra__ == slow.__pydantic_extra__ == {"vendorField": {"kept": True}}
    assert fast.model_fields_set == slow.model_fields_set
    assert fast.to_wire() == slow.to_wire()
    assert fast == slow
    assert call.id == "call_1|fc_1" and call.thought_signature == "sig"  # the original is kept


def test_the_copy_has_containers_of_its_own() -> None:
    call = _call()
    fast = with_fields(call, id="other")
    assert fast.__pydantic_extra__ is not call.__pydantic_extra__
    assert fast.model_fields_set is not call.model_fields_set
    fast.__pydantic_extra__["added"] = 1  # type: ignore[index]
    assert "added" not in (call.__pydantic_extra__ or {})


def test_an_assistant_message_with_new_content() -> None:
    message = AssistantMessage.model_validate(
        {"role": "assistant", "content": [{"type": "text", "text": "hi"}], "api": "x",
         "provider": "p", "model": "m", "stopReason": "stop", "timestamp": 1}
    )  # fmt: skip
    content = [TextContent(text="hello")]
    fast = with_fields(message, content=content)
    slow = message.model_copy(update={"content": content})
    assert fast.to_wire() == slow.to_wire()
    assert fast.model_fields_set == slow.model_fields_set
    assert fast.content is content and message.content[0].text == "hi"  # type: ignore[union-attr]
