"""A small JSON cache file of entries checked against file stamps, shared by the entry-point
cache and the `--help` flag cache.

The file is `{"version": N, "entries": {key: entry}}`, holds at most a given number of entries
(the oldest go first) and is written atomically; a missing, unreadable or other-version file
reads as empty. A stamp is a path's size and modification time, and an entry is used only while
every stamp it recorded is unchanged. Imports nothing heavy: both caches are read at start-up.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

Stamp = list[Any]  # [path, size, mtime_ns]; [path, None, None] for a missing path


def stamp(path: str) -> Stamp:
    """Return `path`'s size and modification time (None, None when it is missing)."""
    try:
        status = os.stat(path)
    except OSError:
        return [path, None, None]
    return [path, status.st_size, status.st_mtime_ns]


def stamps(paths: Iterable[str]) -> list[Stamp]:
    """Return the stamp of each path, once each, in order."""
    return [stamp(path) for path in dict.fromkeys(paths)]


def unchanged(recorded: list[Any]) -> bool:
    """Return whether every stamp in `recorded` still matches its path."""
    return all(
        isinstance(item, list) and len(item) == 3 and stamp(item[0]) == item for item in recorded
    )


def read_entries(path: Path, version: int) -> dict[str, Any]:
    """Return the cache file's entries (empty when it is missing, broken or another version)."""
    try:
        data = json.loads(path.read_bytes())
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict) or data.get("version") != version:
        return {}
    entries = data.get("entries")
    return entries if isinstance(entries, dict) else {}


def store_entry(
    path: Path, version: int, entries: dict[str, Any], key: str, entry: Any, most: int
) -> None:
    """Put `entry` under `key` as the newest of `entries` (at most `most`, the oldest dropped)
    and write them to `path`; failures are ignored (a cache)."""
    entries.pop(key, None)
    entries[key] = entry
    while len(entries) > most:  # oldest first: dicts keep insertion order
        entries.pop(next(iter(entries)))
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        from pi_core.fileio import atomic_write  # only on a miss: tempfile is not cheap

        atomic_write(path, json.dumps({"version": version, "entries": entries}))
    except OSError:
        pass
