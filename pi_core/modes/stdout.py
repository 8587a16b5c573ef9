"""Writing JSONL records to stdout, whole records only, several per write, off the event loop.

Inside an event loop a record is queued and handed on at the end of the loop's current step with
every other record queued in it (a streamed reply's deltas from one network read leave in one
write, not one each); outside a loop, or past 1 MiB queued, it is handed on at once. A writer
thread does the blocking `write`: a client that reads slowly delays its records, never the loop
(which keeps streaming and encoding meanwhile). Past `_BACKLOG_LIMIT` bytes not yet taken by the
reader, the loop waits for the writer, so a reader that stopped cannot make memory grow without
bound. `flush_records` (called when RPC mode ends, and by the lean exit) waits until every byte
is written.
"""

from __future__ import annotations

import asyncio
import sys
from typing import Any, BinaryIO

from pi_core.modes.jsonl import encode_record
from pi_core.modes.queued_writer import QueuedWriter

_FLUSH_AT = 1 << 20
_BACKLOG_LIMIT = 64 << 20
_pending: list[bytes] = []
_pending_bytes = 0


def _stream_writer(stream: BinaryIO) -> QueuedWriter:
    """A writer thread for `stream`, waiting while more than `_BACKLOG_LIMIT` bytes are queued."""

    def write(data: bytes) -> None:
        stream.write(data)
        stream.flush()

    return QueuedWriter(write, "pi-stdout-writer", limit=_BACKLOG_LIMIT)


_writer: QueuedWriter | None = None
_writer_stream: BinaryIO | None = None


def write_record(record: Any) -> None:
    """Queue one record for stdout; it is handed to the writer, in order, by the end of this loop
    step."""
    global _pending_bytes
    line = encode_record(record)
    _pending.append(line)
    _pending_bytes += len(line)
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


def _hand_on() -> None:
    """Give every queued record to the writer thread, in one piece."""
    global _pending_bytes, _writer, _writer_stream
    if not _pending:
        return
    data = b"".join(_pending)
    _pending.clear()
    _pending_bytes = 0
    stream = sys.stdout.buffer
    if _writer is None or _writer_stream is not stream:
        if _writer is not None:
            _writer.drain()  # stdout was replaced (an embedding caller): keep the order
        _writer, _writer_stream = _stream_writer(stream), stream
    _writer.write(data)


def flush_records() -> bool:
    """Write every queued record to stdout now and wait until the writer has written it all;
    False when stdout failed (the reader went away), so some records were lost."""
    _hand_on()
    if _writer is None:
        return True
    _writer.drain()
    return _writer.failed is None
