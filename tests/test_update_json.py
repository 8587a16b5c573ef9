"""Spliced `message_update` records are byte for byte what the full encoder writes."""

from __future__ import annotations

from typing import Any

import pytest

from pi_core.ai.builder import AssistantMessageBuilder
from pi_core.ai.model import Model
from pi_core.events.agent import MessageUpdateEvent
from pi_core.messages.content import TextContent
from pi_core.messages.stream import TextDelta
from pi_core.messages.trusted import construct_trusted
from pi_core.modes import update_json
from pi_core.modes.jsonl import encode_line, encode_record, jsonable

MODEL = Model(id="m", name="m", api="openai-completions", provider="p", base_url="http://x")
PIECES = ["hé", "llo\n", '"q"\\/', "\u2028x\u2029", "😀", "\x01\x1f\x7f", "\t\r\b\f", "€ ok"]


def _update(event: Any) -> MessageUpdateEvent:
    fields = {"type": "message_update", "message": event.partial, "assistant_message_event": event}
    return construct_trusted(MessageUpdateEvent, fields)


def _full(record: Any) -> bytes:
    """The full encoder: the model's own serializer, or (a lone surrogate) the escaping path."""
    return encode_line(jsonable(record))


def _check(record: Any) -> bytes | None:
    spliced = update_json.encode_update(record)
    if spliced is not None:
        assert spliced == _full(record)
    assert encode_record(record) == _full(record)
    return spliced


@pytest.fixture(autouse=True)
def _fresh_frame() -> None:
    update_json._frame = None


def test_text_deltas_splice_and_match_the_full_encoder() -> None:
    builder = AssistantMessageBuilder(MODEL)
    builder.start()
    index, _ = builder.text_start()
    spliced = [_check(_update(builder.text_delta(index, piece))) for piece in PIECES * 20]
    assert all(line is not None for line in spliced)  # every one of them took the fast path


def test_thinking_then_text_then_tool_call_deltas_match() -> None:
    builder = AssistantMessageBuilder(MODEL)
    builder.start()
    thinking, _ = builder.thinking_start()
    for piece in PIECES:
        assert _check(_update(builder.thinking_delta(thinking, piece))) is not None
    builder.thinking_end(thinking, signature="sig")  # changes an earlier block: a new frame
    text, _ = builder.text_start()
    for piece in PIECES:
        assert _check(_update(builder.text_delta(text, piece))) is not None
    call, _ = builder.tool_call_start("call_1", "write")
    for piece in ['{"path": "a', 'é.txt", "content": "\\u00e9\\n', '"}']:
        assert _check(_update(builder.tool_call_delta(call, piece))) is not None


def test_other_changes_between_deltas_are_seen() -> None:
    builder = AssistantMessageBuilder(MODEL)
    builder.start()
    index, _ = builder.text_start()
    _check(_update(builder.text_delta(index, "one ")))
    builder.set_usage(input=12, output=3)
    _check(_update(builder.text_delta(index, "two ")))
    builder.message.response_id = "resp_1"
    _check(_update(builder.text_delta(index, "three ")))
    builder.message.usage.cost.total = 0.5
    _check(_update(builder.text_delta(index, "four ")))
    builder.message.content[index].text_signature = "signed"
    _check(_update(builder.text_delta(index, "five ")))
    builder.message.content.append(TextContent(text="appended"))
    _check(_update(builder.text_delta(index, "six")))


def test_text_replaced_rather_than_grown_gets_a_new_frame() -> None:
    builder = AssistantMessageBuilder(MODEL)
    builder.start()
    index, _ = builder.text_start()
    _check(_update(builder.text_delta(index, "abc")))
    block = builder.message.content[index]
    assert isinstance(block, TextContent)
    block.text = "xyzd"  # not an extension of what was spliced before
    fields = {"type": "text_delta", "content_index": index, "delta": "d"}
    record = _update(construct_trusted(TextDelta, {**fields, "partial": builder.message}))
    assert _check(record) is not None
    assert b'"text":"xyzd"' in encode_record(record)


def test_a_lone_surrogate_goes_to_the_full_encoder() -> None:
    builder = AssistantMessageBuilder(MODEL)
    builder.start()
    index, _ = builder.text_start()
    assert _check(_update(builder.text_delta(index, "ok "))) is not None
    record = _update(builder.text_delta(index, "\ud800 lone"))
    assert _check(record) is None
    assert b"\\ud800" in encode_record(record)
    assert _check(_update(builder.text_delta(index, " after"))) is None  # still in the text


def test_unusual_records_are_left_to_the_full_encoder() -> None:
    builder = AssistantMessageBuilder(MODEL)
    builder.start()
    index, _ = builder.text_start()
    event = builder.text_delta(index, "x")
    other = builder.message.model_copy()
    fields = {"type": "message_update", "message": other, "assistant_message_event": event}
    assert _check(construct_trusted(MessageUpdateEvent, fields)) is None  # partial is not message
    _, start = builder.text_start()
    assert _check(_update(start)) is None  # not a delta
    odd = {"content_index": index, "partial": builder.message, "type": "text_delta", "delta": 5}
    with pytest.warns(UserWarning):  # pydantic warns of the int where a str belongs
        assert _check(_update(construct_trusted(TextDelta, odd))) is None  # not a string
    builder.message.vendor_note = "extra"  # type: ignore[attr-defined]  # an unknown field
    assert _check(_update(builder.text_delta(index, "w"))) is None
    del builder.message.vendor_note  # type: ignore[attr-defined]
    builder.message.content[index].vendor_note = "extra"  # type: ignore[attr-defined]
    assert _check(_update(builder.text_delta(index, "v"))) is not None  # in a block: spliced
    builder.message.response_id = update_json._DELTA_MARK
    assert _check(_update(builder.text_delta(index, "y"))) is None  # a mark in another field
    builder.message.response_id = update_json._TEXT_MARK
    assert _check(_update(builder.text_delta(index, "z"))) is None
