"""Bringing v1 and v2 session files up to v3, as pi does on open."""

from __future__ import annotations

from typing import Any

from pi_core.session.entries import CURRENT_SESSION_VERSION
from pi_core.session.ids import new_entry_id

RawEntry = dict[str, Any]


def _v1_to_v2(entries: list[RawEntry]) -> None:
    """Give every entry an id and link it to the previous one; index-based compaction → id."""
    ids: set[str] = set()
    previous: str | None = None
    for entry in entries:
        if entry.get("type") == "session":
            entry["version"] = 2
            continue
        entry["id"] = new_entry_id(ids)
        ids.add(entry["id"])
        entry["parentId"] = previous
        previous = entry["id"]
        if entry.get("type") == "compaction" and isinstance(entry.get("firstKeptEntryIndex"), int):
            index = entry["firstKeptEntryIndex"]
            target = entries[index] if 0 <= index < len(entries) else None
            if target is not None and target.get("type") != "session":
                entry["firstKeptEntryId"] = target["id"]
            del entry["firstKeptEntryIndex"]


def _v2_to_v3(entries: list[RawEntry]) -> None:
    """Rename the `hookMessage` role to `custom`."""
    for entry in entries:
        if entry.get("type") == "session":
            entry["version"] = 3
        elif entry.get("type") == "message":
            message = entry.get("message")
            if isinstance(message, dict) and message.get("role") == "hookMessage":
                message["role"] = "custom"


def migrate_entries(entries: list[RawEntry]) -> bool:
    """Migrate raw file entries in place to the current version; return whether anything changed."""
    header = next((e for e in entries if e.get("type") == "session"), None)
    version = (header or {}).get("version") or 1
    if version >= CURRENT_SESSION_VERSION:
        return False
    if version < 2:
        _v1_to_v2(entries)
    if version < 3:
        _v2_to_v3(entries)
    return True
