"""A streamed `message_update` record's partial message holds every delta so far, the event's own
included (pi's semantics), also past the length where the builder stops joining each delta."""

from __future__ import annotations

import gc
import json
import random
import weakref
from collections.abc import Callable
from typing import Any

import pytest

from pi_core.ai.builder import AssistantMessageBuilder
from pi_core.ai.model import Model
from pi_core.events.agent import MessageUpdateEvent
from pi_core.messages.trusted import construct_trusted
from pi_core.modes import update_json
from pi_core.modes.jsonl import encode_record

MODEL = Model(id="m", name="m", api="openai-completions", provider="p", base_url="http://x")
# escaped lengths differ from raw ones: quotes, backslashes, control characters, multi-byte UTF-8
ALPHABET = 'abc xyz 0123 "q" \\ / \n \t \r \x00 \x01 \x1f \x7f é € 😀 \u2028 \u2029 ..'


def pieces(total: int, seed: int) -> list[str]:
    """Deltas of 1 to 40 characters, `total` characters in all."""
    chooser = random.Random(seed)
    out: list[str] = []
    length = 0
    while length < total:
        piece = "".join(chooser.choice(ALPHABET) for _ in range(chooser.randint(1, 40)))
        out.append(piece)
        length += len(piece)
    return out


def update(event: Any) -> MessageUpdateEvent:
    fields = {"type": "message_update", "message": event.partial, "assistant_message_event": event}
    return construct_trusted(MessageUpdateEvent, fields)


def streamed_text(line: bytes) -> tuple[str, str, str]:
    """The record's delta and its streaming block's text in `message` and in the event's partial
    (the line must be strict JSON)."""
    record = json.loads(line)
    event = record["assistantMessageEvent"]
    field = "thinking" if event["type"] == "thinking_delta" else "text"
    index = event["contentIndex"]
    return (
        event["delta"],
        record["message"]["content"][index][field],
        event["partial"]["content"][index][field],
    )


@pytest.fixture(autouse=True)
def _fresh_frame() -> None:
    update_json._frame = None


def open_block(builder: AssistantMessageBuilder, kind: str) -> Callable[[str], MessageUpdateEvent]:
    """Start a text or thinking block; returns the record of one more delta to it."""
    if kind == "thinking":
        thinking, _ = builder.thinking_start()
        return lambda delta: update(builder.thinking_delta(thinking, delta))
    text, _ = builder.text_start()
    return lambda delta: update(builder.text_delta(text, delta))


@pytest.mark.parametrize("kind", ["text", "thinking"])
def test_each_encoded_record_holds_every_delta_so_far(kind: str) -> None:
    """Encoded as each delta arrives (the `--mode json`/`rpc` writer with an `out` stream)."""
    builder = AssistantMessageBuilder(MODEL)
    builder.start()
    record_of = open_block(builder, kind)
    so_far = ""
    for number, delta in enumerate(pieces(40_000, seed=len(kind))):
        so_far += delta
        line = encode_record(record_of(delta))
        assert streamed_text(line) == (delta, so_far, so_far), f"delta {number}, at {len(so_far)}"


def test_spliced_lines_joined_after_the_stream_hold_the_deltas_so_far() -> None:
    """Queued unjoined as each delta arrives and joined only after the whole reply streamed (a
    thinking block, then text), as the stdout writer thread does for a slow reader."""
    builder = AssistantMessageBuilder(MODEL)
    builder.start()
    queued: list[tuple[str, str, update_json.SplicedLine]] = []  # delta, text so far, line
    for kind, deltas in (("thinking", pieces(20_000, seed=5)), ("text", pieces(40_000, seed=7))):
        record_of = open_block(builder, kind)
        so_far = ""
        for delta in deltas:
            so_far += delta
            spliced = update_json.splice_update(record_of(delta))
            assert spliced is not None
            queued.append((delta, so_far, spliced))
        if kind == "thinking":
            builder.thinking_end(0)
    for number, (delta, so_far, line) in enumerate(queued):
        assert streamed_text(line.to_bytes()) == (delta, so_far, so_far), f"delta {number}"


def test_a_builder_waiting_to_be_read_is_not_kept_alive() -> None:
    """A reply whose records nobody reads (print mode) leaves nothing behind."""
    builder = AssistantMessageBuilder(MODEL)
    builder.start()
    record_of = open_block(builder, "text")
    for delta in pieces(20_000, seed=3):
        record_of(delta)
    del record_of
    gone = weakref.ref(builder)
    del builder
    gc.collect()
    assert gone() is None
