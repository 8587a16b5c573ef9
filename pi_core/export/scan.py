"""A session's JSONL read line by line into what the page needs, without keeping the entries.

Each line is parsed once for the sidebar (kind and text), the header's figures and where tool
results are, then dropped: a 100,000-entry session is held as its bytes and a small record per
entry, not as 600 MB of dicts. An entry the page renders in Python is parsed again when needed.
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass, field
from typing import Any

import pydantic_core

from pi_core import deep
from pi_core.export.stats import PageStats
from pi_core.export.tree import RawEntry, row_kind_and_text

# A label entry's fields the tree reads (labels apply to their target's row).
_LABEL = ("type", "targetId", "label")


@dataclass
class ScannedSession:
    """The JSONL (one entry per line, current version) and a light record per entry."""

    data: bytes
    header: RawEntry
    # Per entry: id, parentId, timestamp (and a label's fields) and "line", its line in `data`.
    light: list[RawEntry] = field(default_factory=list)
    row_texts: dict[str, tuple[str, str]] = field(default_factory=dict)
    # Tool call id → line number of the first message that answers it.
    results: dict[str, int] = field(default_factory=dict)
    stats: PageStats = field(default_factory=PageStats)
    starts: array[int] = field(default_factory=lambda: array("q"))

    def line(self, number: int) -> bytes:
        """Line `number` of `data`, without its newline."""
        return self.data[self.starts[number] : self.starts[number + 1] - 1]

    def line_size(self, number: int) -> int:
        """The length of line `number` in bytes."""
        return self.starts[number + 1] - self.starts[number] - 1

    def entry(self, number: int) -> RawEntry:
        """The entry on line `number`, parsed again."""
        parsed: RawEntry = _parse(self.line(number))
        return parsed

    def result(self, call_id: str) -> RawEntry | None:
        """The toolResult message answering `call_id`, or None."""
        number = self.results.get(call_id)
        if number is None:
            return None
        message = self.entry(number).get("message")
        return message if isinstance(message, dict) else None


def _parse(raw: bytes) -> Any:
    try:
        return pydantic_core.from_json(raw, cache_strings="keys")
    except ValueError:
        return deep.loads(raw)  # the lines pydantic-core refuses that json reads


def scan_lines(data: bytes, *, current_version: int) -> ScannedSession | None:
    """Scan `data`; None when a line is not a whole JSON object or the file needs migrating."""
    if not data.endswith(b"\n"):
        data += b"\n"
    starts = array("q", [0])
    scanned: ScannedSession | None = None
    position, number = 0, 0
    find = data.find
    while True:
        end = find(b"\n", position)
        if end < 0:
            break
        raw = data[position:end]
        position = end + 1
        starts.append(position)
        number += 1
        if not raw or raw.isspace():
            continue
        try:
            entry = _parse(raw)
        except (ValueError, RecursionError):
            return None
        if type(entry) is not dict:
            return None
        if scanned is None:
            version = entry.get("version")
            if entry.get("type") != "session" or not isinstance(entry.get("id"), str):
                return None
            if not isinstance(version, int) or isinstance(version, bool):
                return None
            if version < current_version:
                return None
            scanned = ScannedSession(data=data, header=entry)
            continue
        _add(scanned, entry, number - 1)
    if scanned is None:
        return None
    scanned.starts = starts
    return scanned


def _add(scanned: ScannedSession, entry: RawEntry, number: int) -> None:
    scanned.stats.add(entry)
    entry_id = entry.get("id")
    # Only what the tree reads; a label entry also keeps its type, target and label.
    light = {"id": entry_id, "parentId": entry.get("parentId"), "line": number}
    if "timestamp" in entry:
        light["timestamp"] = entry["timestamp"]
    kind = entry.get("type")
    if kind == "label":
        light.update((key, entry[key]) for key in _LABEL if key in entry)
    scanned.light.append(light)
    if isinstance(entry_id, str):
        scanned.row_texts[entry_id] = row_kind_and_text(entry)
    message = entry.get("message")
    if kind == "message" and isinstance(message, dict) and message.get("role") == "toolResult":
        call_id = message.get("toolCallId")
        if isinstance(call_id, str):
            scanned.results.setdefault(call_id, number)
