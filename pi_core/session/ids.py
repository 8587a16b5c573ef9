"""Identifiers and timestamps in pi's shapes: 8-hex entry ids, UUIDv7 session ids, ISO times."""

from __future__ import annotations

import os
import random
import time
import uuid
from collections.abc import Container
from datetime import UTC, datetime

_random_bits = random.getrandbits


def new_entry_id(taken: Container[str]) -> str:
    """Return 8 random hex characters not in `taken` (a full UUID after 100 collisions)."""
    for _ in range(100):
        # ids need to be unique, not secret: the process's Mersenne Twister (seeded from the
        # OS, reseeded in a forked child) is 5x cheaper than os.urandom and 30x than uuid4
        candidate = f"{_random_bits(32):08x}"
        if candidate not in taken:
            return candidate
    return str(uuid.uuid4())


def new_session_id() -> str:
    """Return a UUIDv7 (time-ordered), as pi names sessions."""
    millis = time.time_ns() // 1_000_000
    value = (millis & ((1 << 48) - 1)) << 80
    value |= int.from_bytes(os.urandom(10), "big") & ((1 << 80) - 1)
    value = (value & ~(0xF << 76)) | (0x7 << 76)  # version 7
    value = (value & ~(0x3 << 62)) | (0x2 << 62)  # RFC 4122 variant
    return str(uuid.UUID(int=value))


def iso_now() -> str:
    """Return the current UTC time as JavaScript's toISOString() writes it."""
    seconds, nanos = divmod(time.time_ns(), 1_000_000_000)
    global _second_text
    if _second_text[0] != seconds:  # formatting the date is most of the cost: once a second
        _second_text = (seconds, time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(seconds)))
    return f"{_second_text[1]}.{nanos // 1_000_000:03d}Z"


_second_text: tuple[int, str] = (-1, "")


def iso_to_ms(timestamp: str) -> int:
    """Convert an ISO timestamp to milliseconds since the epoch (0 if unreadable)."""
    try:
        parsed = datetime.fromisoformat(timestamp.replace("Z", "+00:00"))
    except (ValueError, AttributeError):
        return 0
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=UTC)
    return int(parsed.timestamp() * 1000)


def file_timestamp(iso: str) -> str:
    """Turn an ISO timestamp into the file-name prefix pi uses (`:` and `.` become `-`)."""
    return iso.replace(":", "-").replace(".", "-")
