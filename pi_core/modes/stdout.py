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
import threading
from collections import deque
from typing import Any, BinaryIO

from pi_core.modes.jsonl import encode_record

_FLUSH_AT = 1 << 20
_BACKLOG_LIMIT = 64 << 20
_pending: list[bytes] = []
_pending_bytes = 0


class _StdoutWriter:
    """Writes queued byte strings to one binary stream from its own thread, in order."""

    def __init__(self, stream: BinaryIO) -> None:
        self.stream = stream
        self._chunks: deque[bytes] = deque()
        self.backlog = 0
        self.failed: OSError | None = None
        self._condition = threading.Condition()
        self._thread = threading.Thread(target=self._run, name="pi-stdout-writer", daemon=True)
        self._thread.start()

    def write(self, data: bytes) -> None:
        """Queue `data`; wait first while more than `_BACKLOG_LIMIT` bytes are still queued."""
        with self._condition:
            if self.backlog > _BACKLOG_LIMIT:
                self._condition.wait_for(lambda: self.backlog <= _BACKLOG_LIMIT or self._dead)
            if self.failed is not None:
                return  # the reader went away: the exit reports it (flush fails)
            self._chunks.append(data)
            self.backlog += len(data)
            self._condition.notify_all()

    def drain(self) -> None:
        """Wait until everything queued is written (or writing failed)."""
        with self._condition:
            self._condition.wait_for(lambda: self.backlog == 0 or self._dead)

    @property
    def _dead(self) -> bool:
        return self.failed is not None or not self._thread.is_alive()

    def _run(self) -> None:
        while True:
            with self._condition:
                self._condition.wait_for(lambda: bool(self._chunks))
                chunks = self._chunks
                data = chunks.popleft() if len(chunks) == 1 else b"".join(chunks)
                chunks.clear()
            try:
                self.stream.write(data)
                self.stream.flush()
            except Exception as error:  # a closed pipe, a closed stream: never a silent hang
                with self._condition:
                    self.failed = error if isinstance(error, OSError) else OSError(str(error))
                    self._chunks.clear()
                    self.backlog = 0
                    self._condition.notify_all()
                return
            with self._condition:
                self.backlog -= len(data)
                self._condition.notify_all()


_writer: _StdoutWriter | None = None


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
    global _pending_bytes, _writer
    if not _pending:
        return
    data = b"".join(_pending)
    _pending.clear()
    _pending_bytes = 0
    stream = sys.stdout.buffer
    if _writer is None or _writer.stream is not stream:
        if _writer is not None:
            _writer.drain()  # stdout was replaced (an embedding caller): keep the order
        _writer = _StdoutWriter(stream)
    _writer.write(data)


def flush_records() -> bool:
    """Write every queued record to stdout now and wait until the writer has written it all;
    False when stdout failed (the reader went away), so some records were lost."""
    _hand_on()
    if _writer is None:
        return True
    _writer.drain()
    return _writer.failed is None
