"""Per-delta events built by `construct_trusted` are the models `model_construct` builds."""

from __future__ import annotations

import pytest

from pi_core.events.agent import MessageUpdateEvent
from pi_core.messages.llm import AssistantMessage, Usage
from pi_core.messages.stream import TextDelta, ThinkingDelta, ToolCallDelta
from pi_core.messages.trusted import construct_trusted
from pi_core.modes.jsonl import serialize_line


@pytest.mark.parametrize("cls", [TextDelta, ThinkingDelta, ToolCallDelta])
def test_a_delta_equals_and_serializes_like_model_construct(cls: type) -> None:
    partial = AssistantMessage(api="a", provider="p", model="m", usage=Usage())
    kind = cls.model_fields["type"].default
    fields = {"partial": partial, "delta": "ab\u2028c", "type": kind, "content_index": 2}
    trusted = construct_trusted(cls, dict(fields))
    constructed = cls.model_construct(**fields)
    assert trusted == constructed
    assert serialize_line(trusted) == serialize_line(constructed)
    assert trusted.model_fields_set == constructed.model_fields_set


def test_a_message_update_serializes_like_model_construct() -> None:
    partial = AssistantMessage(api="a", provider="p", model="m", usage=Usage())
    delta = TextDelta.model_construct(
        type="text_delta", content_index=0, delta="x", partial=partial
    )
    fields = {"message": partial, "assistant_message_event": delta, "type": "message_update"}
    trusted = construct_trusted(MessageUpdateEvent, dict(fields))
    assert serialize_line(trusted) == serialize_line(MessageUpdateEvent.model_construct(**fields))
    assert trusted.to_wire()["assistantMessageEvent"]["delta"] == "x"


def test_a_missing_field_is_an_error_not_a_half_built_event() -> None:
    with pytest.raises(KeyError):
        construct_trusted(TextDelta, {"type": "text_delta", "delta": "x"})
