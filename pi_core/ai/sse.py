"""Server-sent events: a body's bytes, read by read, as (event name, data) pairs.

This sits on the per-token path (see docs/performance.md): a read is cut after its last line end
and split on blank lines, and an event that is a single `data: ` line (nearly all of them) is
yielded at once; anything else goes through the line-by-line parser.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterable, AsyncIterator

LOOP_SLICE_SECONDS = 0.002
"""How long `decode_sse` may run (with its consumer) before it lets the event loop serve others."""

BOM = b"\xef\xbb\xbf"


async def decode_sse(chunks: AsyncIterable[bytes]) -> AsyncIterator[tuple[str, str]]:
    """Yield each server-sent event of a byte stream as (event name, data).

    Lines end in LF, CRLF or a lone CR (a CRLF split between two reads is one line end); one
    leading UTF-8 byte order mark is skipped; `id`, `retry` and comment lines are ignored; an
    event's several `data` lines are joined with newlines. A complete event left without its
    closing blank line when the body ends is still delivered; a partial last line is not.
    """
    pending = b""
    parser = _EventParser()
    count = 0
    slice_end = time.perf_counter() + LOOP_SLICE_SECONDS
    started = False  # the leading byte order mark, if any, has been dealt with
    after_cr = False  # the last read ended in CR: an LF opening the next one ends no new line
    async for chunk in chunks:
        if after_cr and chunk:
            after_cr = False
            if chunk[:1] == b"\n":
                chunk = chunk[1:]
        if not started:
            head = pending + chunk
            if len(head) < len(BOM) and BOM.startswith(head):
                pending = head  # too short yet to tell whether a mark begins the stream
                continue
            started, pending = True, b""
            chunk = head[len(BOM) :] if head.startswith(BOM) else head
        buffer = pending + chunk if pending else chunk
        if b"\r" in buffer:
            after_cr = buffer.endswith(b"\r")
            buffer = buffer.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
        cut = buffer.rfind(b"\n") + 1
        if not cut:
            pending = buffer
            continue
        complete, pending = buffer[: cut - 1], buffer[cut:]
        *whole, rest = complete.split(b"\n\n")  # each of `whole` ends at a blank line
        for piece in whole:
            count += 1
            if not count & 63 and time.perf_counter() > slice_end:
                # a large buffered read would otherwise hold the loop for its whole length (the
                # REPL's key presses wait behind it); give other tasks a turn every few ms
                await asyncio.sleep(0)
                slice_end = time.perf_counter() + LOOP_SLICE_SECONDS
            if parser.idle and piece.startswith(b"data: ") and b"\n" not in piece:
                yield "message", piece[6:].decode(errors="replace")  # a whole one-line event
                continue
            for event in parser.lines(piece):
                yield event
            if ended := parser.dispatch():
                yield ended
        for event in parser.lines(rest):
            yield event
    if parser.data:
        yield parser.name or "message", "\n".join(parser.data)


class _EventParser:
    """The fields of the event being read, line by line."""

    __slots__ = ("data", "name")

    def __init__(self) -> None:
        self.name = ""
        self.data: list[str] = []

    @property
    def idle(self) -> bool:
        """Whether no field of an event has been read since the last blank line."""
        return not (self.data or self.name)

    def lines(self, text: bytes) -> list[tuple[str, str]]:
        """Take the lines of `text` (LF-separated, CR already gone); return the events that
        blank lines among them ended."""
        events = []
        for line in text.split(b"\n"):
            if line.startswith(b"data: "):
                self.data.append(line[6:].decode(errors="replace"))
            elif not line:
                if event := self.dispatch():
                    events.append(event)
            else:
                field, _, value = line.decode(errors="replace").partition(":")
                if value.startswith(" "):
                    value = value[1:]
                if field == "data":
                    self.data.append(value)
                elif field == "event":
                    self.name = value
        return events

    def dispatch(self) -> tuple[str, str] | None:
        """End the event at a blank line: return it (None when it had no data) and start anew."""
        event = (self.name or "message", "\n".join(self.data)) if self.data else None
        self.name, self.data = "", []
        return event
