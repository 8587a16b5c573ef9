"""Writing JSONL records to stdout, whole records only, several per write when they come at once.

Inside an event loop a record is queued and written at the end of the loop's current step with
every other record queued in it (a streamed reply's deltas from one network read leave in one
write, not one each); outside a loop, or past 1 MiB queued, it is written at once.
"""

from __future__ import annotations

import asyncio
import sys
from typing import Any

from pi_core.modes.jsonl import encode_record

_FLUSH_AT = 1 << 20
_pending: list[bytes] = []
_pending_bytes = 0


def write_record(record: Any) -> None:
    """Queue one record for stdout; it is written, in order, by the end of this loop step."""
    global _pending_bytes
    line = encode_record(record)
    _pending.append(line)
    _pending_bytes += len(line)
    if _pending_bytes >= _FLUSH_AT:
        flush_records()
        return
    if len(_pending) > 1:
        return  # a flush is scheduled already
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        flush_records()
        return
    loop.call_soon(flush_records)


def flush_records() -> None:
    """Write every queued record to stdout now, in one write, and flush."""
    global _pending_bytes
    if not _pending:
        return
    data = b"".join(_pending)
    _pending.clear()
    _pending_bytes = 0
    sys.stdout.buffer.write(data)
    sys.stdout.buffer.flush()
