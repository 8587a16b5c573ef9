"""Another model's text blocks that need no change are kept as they are, not rebuilt."""

from __future__ import annotations

from pi_core.ai.model import Model
from pi_core.ai.transform import transform_messages
from pi_core.messages.content import TextContent
from pi_core.messages.llm import AssistantMessage

MODEL = Model(id="m", api="openai-completions", provider="p")


def _foreign(*content: TextContent) -> AssistantMessage:
    return AssistantMessage(
        api="anthropic-messages", provider="anthropic", model="claude", content=list(content)
    )


def test_a_plain_text_block_is_kept_and_a_signed_one_rebuilt() -> None:
    plain = TextContent(text="plain")
    signed = TextContent(text="signed", text_signature="sig")
    vendor = TextContent.model_validate({"type": "text", "text": "vendor", "vendorField": 1})
    message = _foreign(plain, signed, vendor)
    (sent,) = transform_messages([message], MODEL)
    assert isinstance(sent, AssistantMessage) and sent is not message
    assert sent.content[0] is plain  # nothing to drop: the same read-only block
    assert sent.content[1] is not signed and sent.content[2] is not vendor
    assert [block.to_wire() for block in sent.content] == [
        {"type": "text", "text": "plain"},
        {"type": "text", "text": "signed"},
        {"type": "text", "text": "vendor"},
    ]
    assert signed.text_signature == "sig" and vendor.model_extra == {"vendorField": 1}
