"""The installed distributions' `pi`, `pi.resources` and `pi.commands` entry points, remembered.

Reading entry points through `importlib.metadata` walks every distribution on `sys.path` and parses
the METADATA of each one that has a `pi` entry point (name and version): ~8 ms of every start. The
result of that scan is kept in `<agent dir>/cache/entry-points.json`, under a key made of the
interpreter, `sys.path` (and the working folder when `sys.path` holds it), with stamps of what the
scan read: the modification time of every `sys.path` entry, the size and modification time of every
distribution's `entry_points.txt`, and those of the METADATA of each distribution with a `pi*` entry
point (its name and version are kept). Installing, upgrading or removing a distribution adds,
renames or deletes a metadata folder (its `sys.path` folder's time changes); editing an
`entry_points.txt` in place changes its stamp. Either way the stamps differ, the entry is not used,
and the scan runs again. A scan that saw a time less than two seconds old is not stored (file times
are coarse, so a change right after it could keep the same time).

A hit reads only the `entry_points.txt` of the distributions that had a `pi*` entry point, bound
to a distribution object that knows its name and version from the cache. When some distribution
is not a metadata folder on disk (a zip, a custom finder), nothing is cached for that interpreter.
`PI_NO_ENTRY_POINT_CACHE=1` turns the cache off. Failures to read or write it are ignored: the
cache only ever saves time.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import time
from importlib.metadata import (
    EntryPoint,
    PathDistribution,
    distributions,
)
from importlib.metadata import (
    entry_points as scan_entry_points,
)
from pathlib import Path
from typing import Any

from pi_core.plugins.stamped_cache import (
    Stamp,
    read_entries,
    stamp,
    stamps,
    store_entry,
    unchanged,
)

CACHE_VERSION = 1
MAX_ENTRIES = 8
# A stamp this recent may share its time with a change made right after the scan (file times are
# coarse): such a scan is used but not stored, as git does with "racily clean" files.
RACY_NS = 2_000_000_000
DISABLE_ENV = "PI_NO_ENTRY_POINT_CACHE"
GROUPS = ("pi", "pi.resources", "pi.commands")


class KnownDistribution(PathDistribution):
    """A distribution read from its metadata folder, with its name and version from the cache
    (so METADATA is not parsed again)."""

    def __init__(self, path: Path, name: str, version: str) -> None:
        """Remember the metadata folder, the name and the version."""
        super().__init__(path)
        self._known_name = name
        self._known_version = version

    @property
    def name(self) -> str:
        """Return the distribution's name as it was when the cache was written."""
        return self._known_name

    @property
    def version(self) -> str:
        """Return the distribution's version as it was when the cache was written."""
        return self._known_version


def cache_file() -> Path:
    """Return the cache file in the agent dir's `cache` folder."""
    from pi_core.config.paths import agent_dir

    return agent_dir() / "cache" / "entry-points.json"


def _key() -> str:
    from pi_core._version import __version__

    parts: list[Any] = [sys.executable, sys.path, __version__, CACHE_VERSION]
    if "" in sys.path or "." in sys.path:
        parts.append(os.getcwd())
    return hashlib.sha256(json.dumps(parts).encode()).hexdigest()


def entry_points(group: str) -> list[EntryPoint]:
    """Return the entry points of `group` (one of GROUPS), as `importlib.metadata` would."""
    if group not in GROUPS:
        raise ValueError(f"{group!r} is not a cached entry-point group")
    if os.environ.get(DISABLE_ENV):
        return list(scan_entry_points(group=group))
    key = _key()
    data = read_entries(cache_file(), CACHE_VERSION)
    entry = data.get(key)
    dists = _valid(entry) if isinstance(entry, dict) else None
    if dists is None:
        started = time.time_ns()
        scanned = _scan()
        if scanned is not None:
            if not _racy(scanned["stamps"], started):
                store_entry(cache_file(), CACHE_VERSION, data, key, scanned, MAX_ENTRIES)
            dists = scanned["dists"]
    if dists is None:
        return list(scan_entry_points(group=group))
    found: list[EntryPoint] = []
    for record in dists:
        dist = KnownDistribution(Path(record["path"]), record["name"], record["version"])
        found.extend(dist.entry_points.select(group=group))
    return found


def _valid(entry: dict[str, Any]) -> list[dict[str, Any]] | None:
    """The cached distributions, if nothing the scan read has changed since."""
    recorded, dists = entry.get("stamps"), entry.get("dists")
    if not isinstance(recorded, list) or not isinstance(dists, list):
        return None
    return dists if unchanged(recorded) else None


def _racy(recorded: list[Stamp], started: int) -> bool:
    return any(mtime is not None and mtime > started - RACY_NS for _, _, mtime in recorded)


def _scan() -> dict[str, Any] | None:
    """Scan the installed distributions: those with a `pi*` entry point, and the stamps; None
    when some distribution has no metadata folder to stamp."""
    paths = [entry or os.getcwd() for entry in sys.path]
    found_stamps = stamps(paths)
    for dist in distributions():
        folder = getattr(dist, "_path", None)
        if not isinstance(folder, Path):
            return None
        found_stamps.append(stamp(str(folder / "entry_points.txt")))
    dists: dict[str, dict[str, str]] = {}
    everything = scan_entry_points()
    for ep in (ep for group in GROUPS for ep in everything.select(group=group)):
        if ep.dist is None:
            continue
        folder = getattr(ep.dist, "_path", None)
        if not isinstance(folder, Path):
            return None
        if str(folder) not in dists:
            # the name and version kept come from here: an edit in place is seen too
            found_stamps += [stamp(str(folder / name)) for name in ("METADATA", "PKG-INFO")]
            dists[str(folder)] = {
                "path": str(folder),
                "name": ep.dist.name,
                "version": ep.dist.version,
            }
    return {"stamps": found_stamps, "dists": list(dists.values())}
