"""Writing JSONL records to stdout, one whole record per write."""

from __future__ import annotations

import sys
from typing import Any

from pi_core.modes.jsonl import serialize_line


def write_record(record: Any) -> None:
    """Write one record and flush."""
    sys.stdout.buffer.write(serialize_line(record).encode())
    sys.stdout.buffer.flush()
