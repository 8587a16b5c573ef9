"""Writing JSONL records to stdout, whole records only, several per write, off the event loop.

Inside an event loop a record is queued and handed on at the end of the loop's current step with
every other record queued in it (a streamed reply's deltas from one network read leave in one
write, not one each); outside a loop, or past 1 MiB held, it is handed on at once. A writer
thread (`record_writer.py`) does the blocking `write`: a client that reads slowly delays its
records, never the loop (which keeps streaming and encoding meanwhile); while the reader keeps
up and nothing is queued, records are written at once without blocking, from the loop's thread.
A streamed delta's record is queued unjoined (`update_json.SplicedLine`), so it holds its delta,
not the partial message.
Past `BACKLOG_LIMIT` bytes held by records the reader has not taken, the loop waits for the
writer, so a reader that stopped cannot make memory grow without bound: the queue holds at most
`BACKLOG_LIMIT` plus one loop step's records (1 MiB, or one larger record). `flush_records`
(called when RPC mode ends, and by the lean exit) waits until every byte is written.
"""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Callable
from typing import Any, BinaryIO

from pi_core.modes.jsonl import encode_record
from pi_core.modes.record_writer import Line, RecordWriter

BACKLOG_LIMIT = 8 << 20
_FLUSH_AT = 1 << 20
_pending: list[tuple[Line, int]] = []
_pending_bytes = 0


def _stream_writer(stream: BinaryIO) -> RecordWriter:
    """A writer thread for `stream`, waiting while more than `BACKLOG_LIMIT` bytes are held;
    records go out at once from the loop's thread while the reader keeps up."""

    def write(data: bytes) -> None:
        stream.write(data)
        stream.flush()

    return RecordWriter(
        write, "pi-stdout-writer", limit=BACKLOG_LIMIT, try_now=_write_at_once(stream)
    )


def _write_at_once(stream: BinaryIO) -> Callable[[bytes], int] | None:
    """A write to `stream`'s descriptor that never blocks and returns the bytes taken, or None
    when `stream` has no descriptor (an embedding caller's buffer: the thread writes it).

    Handing each loop step's records to the thread cost a wake-up of it and a GIL hand-over per
    step. The descriptor is non-blocking only for this call: it is shared (a terminal, or a
    pipe other processes hold too).
    """
    try:
        fd = stream.fileno()
    except (AttributeError, OSError, ValueError):
        return None

    def write(data: bytes) -> int:
        stream.flush()  # bytes written to the stream around the records go first
        blocking = os.get_blocking(fd)
        if blocking:
            os.set_blocking(fd, False)
        try:
            return os.write(fd, data)
        except (BlockingIOError, InterruptedError):
            return 0
        finally:
            if blocking:
                os.set_blocking(fd, True)

    return write


_writer: RecordWriter | None = None
_writer_stream: BinaryIO | None = None


def write_record(record: Any) -> None:
    """Queue one record for stdout; it is handed to the writer, in order, by the end of this loop
    step."""
    global _pending_bytes
    line = _line(record)
    _pending.append(line)
    _pending_bytes += line[1]
    if _pending_bytes >= _FLUSH_AT:
        _hand_on()
        return
    if len(_pending) > 1:
        return  # a hand-on is scheduled already
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        _hand_on()
        return
    loop.call_soon(_hand_on)


def _line(record: Any) -> tuple[Line, int]:
    """The record's line, a streamed delta's left unjoined, and the bytes it holds."""
    if getattr(record, "type", None) == "message_update":
        from pi_core.modes.update_json import splice_update

        spliced = splice_update(record)
        if spliced is not None:
            return spliced, spliced.held
    data = encode_record(record)
    return data, len(data)


def _hand_on() -> None:
    """Give every queued record to the writer thread."""
    global _pending_bytes, _writer, _writer_stream
    if not _pending:
        return
    lines = _pending.copy()
    held = _pending_bytes
    _pending.clear()
    _pending_bytes = 0
    stream = sys.stdout.buffer
    if _writer is None or _writer_stream is not stream:
        if _writer is not None:
            _writer.drain()  # stdout was replaced (an embedding caller): keep the order
        _writer, _writer_stream = _stream_writer(stream), stream
    _writer.write(lines, held)


def held_bytes() -> tuple[int, int]:
    """What the records not yet written hold now, and the most they held at once since stdout's
    writer started (0, 0 before the first record)."""
    if _writer is None:
        return 0, 0
    return _writer.held, _writer.peak_held


def flush_records() -> bool:
    """Write every queued record to stdout now and wait until the writer has written it all;
    False when stdout failed (the reader went away), so some records were lost."""
    _hand_on()
    if _writer is None:
        return True
    _writer.drain()
    return _writer.failed is None
