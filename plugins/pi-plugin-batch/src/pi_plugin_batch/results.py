"""`results.jsonl`: append-only, one fsynced line per finished attempt, the source of truth."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any


class ResultStore:
    """Appends records durably; repairs a line torn by a killed driver when opened."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.repaired = _repair(path)
        self._file = path.open("ab")

    def append(self, record: dict[str, Any]) -> None:
        """Write one record as one line, flushed and fsynced before returning."""
        self._file.write(json.dumps(record, sort_keys=True).encode() + b"\n")
        self._file.flush()
        os.fsync(self._file.fileno())

    def close(self) -> None:
        """Close the file."""
        self._file.close()


def read_records(path: Path) -> list[dict[str, Any]]:
    """Every complete record in `path` (a torn last line is ignored)."""
    records: list[dict[str, Any]] = []
    if not path.exists():
        return records
    for line in path.read_bytes().splitlines():
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(record, dict):
            records.append(record)
    return records


def final_attempts(records: list[dict[str, Any]]) -> set[tuple[str, int]]:
    """The (task id, attempt) pairs whose record is final."""
    return {(r["task_id"], int(r["attempt"])) for r in records if r.get("final")}


def _repair(path: Path) -> bool:
    """Cut an unterminated last line (a write the driver did not finish); True if cut."""
    if not path.exists() or path.stat().st_size == 0:
        return False
    data = path.read_bytes()
    if data.endswith(b"\n"):
        return False
    keep = data.rfind(b"\n") + 1
    with path.open("r+b") as file:
        file.truncate(keep)
        file.flush()
        os.fsync(file.fileno())
    return True
