"""Encoding streamed `message_update` records from cached parts, in time proportional to their size.

Each record holds the whole partial message twice (`message` and `assistantMessageEvent.partial`),
and between two deltas only the streaming block's text (or thinking) grows. So the record's JSON
is cut once into a frame around that text and the delta; per delta only the new piece of text and
the delta are escaped, and the record is joined from the frame and the escaped text kept so far.
The bytes are exactly what the full encoder writes (the tests compare the two). The partial
message is brought up to date first (`partial_text`: the builder joins a long block's text only
now and then), so a record's message holds every delta so far, its own included.

Anything unusual gets the full encoder: an event not built the usual way (a delta whose `partial`
is not the record's message, a block of another kind), a lone surrogate (which only the full
encoder's fallback can write), or a change to any other field of the message, its blocks, usage
or cost since the frame was cut (a new block, a signature, token counts) — then the frame is cut
anew. Fields are compared by value, containers by identity (a block list that grew is caught by
its length); a plugin that edits the contents of a nested dict in place while the message streams
is not noticed.
"""

from __future__ import annotations

import re
from typing import Any

import pydantic_core
from pydantic import BaseModel

from pi_core.events.agent import MessageUpdateEvent
from pi_core.messages.content import TextContent, ThinkingContent, ToolCall
from pi_core.messages.llm import AssistantMessage
from pi_core.messages.partial_text import bring_up_to_date
from pi_core.messages.stream import TextDelta, ThinkingDelta, ToolCallDelta

_TEXT_MARK = "\ue000pi-splice-text\ue001"
_DELTA_MARK = "\ue000pi-splice-delta\ue001"
_TEXT_MARK_JSON = _TEXT_MARK.encode()
_DELTA_MARK_JSON = _DELTA_MARK.encode()
_MARKS = re.compile(b"(" + re.escape(_TEXT_MARK_JSON) + b"|" + re.escape(_DELTA_MARK_JSON) + b")")
_TEXT_SLOT = 0  # in a frame's parts: where the escaped text goes
_DELTA_SLOT = 1  # and where the escaped delta goes

# the delta event's type -> (the block type it streams into, the growing field, or None)
_GROWING: dict[type[BaseModel], tuple[type[BaseModel], str | None]] = {
    TextDelta: (TextContent, "text"),
    ThinkingDelta: (ThinkingContent, "thinking"),
    ToolCallDelta: (ToolCall, None),  # the arguments are parsed at the end: no text grows
}


class _Frame:
    """A record cut around the streaming text and the delta, and the text escaped so far."""

    __slots__ = ("delta_slot", "escaped", "fingerprint", "parts", "text", "text_slots")

    def __init__(self, fingerprint: tuple[Any, ...], parts: list[bytes | int], text: str) -> None:
        self.fingerprint = fingerprint
        self.parts: list[bytes | bytearray] = [
            part if type(part) is bytes else b"" for part in parts
        ]
        self.text_slots = [index for index, part in enumerate(parts) if part == _TEXT_SLOT]
        self.delta_slot = parts.index(_DELTA_SLOT)
        self.text = text
        self.escaped = bytearray(_escape(text))


_frame: _Frame | None = None


class SplicedLine:
    """A record's line not yet joined: its frame, how much of the frame's escaped text it holds
    and its escaped delta. The frame's parts and text, which only grow while the block streams,
    are shared with the records before and after it, so a queue of these holds about the final
    text once and every delta, not every partial message."""

    __slots__ = ("_delta", "_frame", "_length", "held")

    def __init__(self, frame: _Frame, length: int, delta: bytes, held: int) -> None:
        self._frame = frame
        self._length = length
        self._delta = delta
        self.held = held  # the bytes this line keeps alive (its frame's too when it cut one)

    def to_bytes(self) -> bytes:
        """The line's bytes, exactly what the full encoder writes (LF included); safe from
        another thread while the frame's text grows (the text is copied, never exported)."""
        return _join(self._frame, self._frame.escaped[: self._length], self._delta)


_LINE_OVERHEAD = 128  # the object, its delta's bytes object and a queue slot


def encode_update(record: Any) -> bytes | None:
    """Return the record's JSONL line (LF included) from cached parts, or None when the full
    encoder must write it."""
    line = splice_update(record)
    if line is None:
        return None
    return _join(line._frame, line._frame.escaped, line._delta)


def splice_update(record: Any) -> SplicedLine | None:
    """Return the record's line, to be joined later (see `SplicedLine`), or None when the full
    encoder must write it."""
    global _frame
    bring_up_to_date(getattr(record, "message", None))  # the record holds the event's own delta
    shape = _shape(record)
    if shape is None:
        return None
    message, index, field = shape
    fingerprint = _fingerprint(record, message, index, field)
    text = getattr(message.content[index], field) if field is not None else ""
    raw_delta = record.assistant_message_event.delta
    if type(text) is not str or type(raw_delta) is not str:
        return None
    frame = _frame
    try:
        delta = _escape(raw_delta)
        held = 2 * len(delta) + _LINE_OVERHEAD  # the delta, and as much added to the frame's text
        if frame is None or frame.fingerprint != fingerprint or not text.startswith(frame.text):
            frame = _frame = _cut(record, message, index, field, fingerprint, text)
            if frame is None:
                return None
            held += sum(len(part) for part in frame.parts) + len(frame.escaped)
        elif len(text) != len(frame.text):
            added = text[len(frame.text) :]
            frame.escaped += delta if added == raw_delta else _escape(added)
            frame.text = text
    except pydantic_core.PydanticSerializationError:
        _frame = None  # a lone surrogate
        return None
    return SplicedLine(frame, len(frame.escaped), delta, held)


def _join(frame: _Frame, text: bytes | bytearray, delta: bytes) -> bytes:
    """The line from the frame's parts, the escaped text and the escaped delta."""
    parts = frame.parts.copy()
    for slot in frame.text_slots:
        parts[slot] = text
    parts[frame.delta_slot] = delta
    return b"".join(parts)


def _escape(text: str) -> bytes:
    """The JSON escaping of `text`, without its quotes (raises on a lone surrogate)."""
    return pydantic_core.to_json(text)[1:-1]


def _shape(record: Any) -> tuple[AssistantMessage, int, str | None] | None:
    """The streaming message, block index and growing field, if the record is a usual delta
    (extra fields anywhere but in blocks are unusual)."""
    if type(record) is not MessageUpdateEvent:
        return None
    event: Any = record.assistant_message_event
    kinds = _GROWING.get(type(event))
    message = record.message
    if kinds is None or event.partial is not message or type(message) is not AssistantMessage:
        return None
    index = event.content_index
    content = message.content
    if not 0 <= index < len(content) or type(content[index]) is not kinds[0]:
        return None
    usage = message.usage
    for model in (record, event, message, usage, usage.cost):
        if model.__pydantic_extra__:
            return None
    return message, index, kinds[1]


def _fingerprint(
    record: Any, message: AssistantMessage, index: int, field: str | None
) -> tuple[Any, ...]:
    """Everything in the record but the growing text and the delta, by value (containers by
    identity and length), as copies of the models' dicts (compared at C speed)."""
    event = record.assistant_message_event
    content = message.content
    usage = message.usage
    blocks = [(block.__dict__.copy(), block.__pydantic_extra__ or None) for block in content]
    if field is not None:
        blocks[index][0][field] = None
    return (
        message,
        record.type,
        type(event),
        event.type,
        index,
        message.__dict__.copy(),
        usage.__dict__.copy(),
        usage.cost.__dict__.copy(),
        content.copy(),  # the blocks themselves, by identity
        blocks,
    )


def _cut(
    record: Any,
    message: AssistantMessage,
    index: int,
    field: str | None,
    fingerprint: tuple[Any, ...],
    text: str,
) -> _Frame | None:
    """Encode the record with marks in place of the text and the delta, and cut it there."""
    content = list(message.content)
    if field is not None:
        content[index] = content[index].model_copy(update={field: _TEXT_MARK})
    marked = message.model_copy(update={"content": content})
    event = record.assistant_message_event.model_copy(
        update={"delta": _DELTA_MARK, "partial": marked}
    )
    copy = record.model_copy(update={"message": marked, "assistant_message_event": event})
    line = copy.__pydantic_serializer__.to_json(copy, by_alias=True, exclude_none=True) + b"\n"
    pieces = _MARKS.split(line)  # [bytes, mark, bytes, mark, ..., bytes]
    marks = pieces[1::2]
    if marks.count(_DELTA_MARK_JSON) != 1 or marks.count(_TEXT_MARK_JSON) != (2 if field else 0):
        return None
    parts: list[bytes | int] = []
    for position, piece in enumerate(pieces):
        if position % 2 == 0:
            parts.append(piece)
        else:
            parts.append(_DELTA_SLOT if piece == _DELTA_MARK_JSON else _TEXT_SLOT)
    return _Frame(fingerprint, parts, text)
