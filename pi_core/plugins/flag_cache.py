"""`pi --help` without importing the plugins: the flags they registered at the last full load.

Listing plugin flags means importing and registering every plugin, about two thirds of
`pi --help`'s time. After a full load for `--help`, the flags are kept in a small JSON file in
the user's cache folder, under a key made of the working folder, the agent folder, the load
options, pi's version and the interpreter. An entry is used only while everything the load read
is unchanged (size and modification time): every module file the load imported, the settings
files, the extension folders, the folders of path plugins, and every `sys.path` folder
(installing, upgrading or removing a distribution changes its site-packages folder). A plugin
whose flags depend on something else (an environment variable, a data file) shows the flags of
the last full load; `PI_NO_HELP_CACHE=1` turns the cache off.

This module imports nothing heavy: the hit path must stay as cheap as `pi --version`.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from pi_core.plugins.stamped_cache import read_entries, stamps, store_entry, unchanged

CACHE_VERSION = 1
MAX_ENTRIES = 16
DISABLE_ENV = "PI_NO_HELP_CACHE"


def cache_file() -> Path:
    """Return the cache file: `$XDG_CACHE_HOME/pi-harness/help-flags.json` (`~/.cache` default)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(Path.home(), ".cache")
    return Path(base) / "pi-harness" / "help-flags.json"


def cache_key(cwd: Path, agent_dir: Path, options: dict[str, Any]) -> str:
    """Return the key of one load: where, with which options, by which pi and interpreter."""
    from pi_core._version import __version__

    parts = [str(cwd), str(agent_dir), options, __version__, sys.executable, CACHE_VERSION]
    return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()


def cached_flags(key: str) -> list[dict[str, Any]] | None:
    """Return the flags stored under `key` if nothing they depend on changed, else None."""
    if os.environ.get(DISABLE_ENV):
        return None
    entry = read_entries(cache_file(), CACHE_VERSION).get(key)
    if not isinstance(entry, dict):
        return None
    recorded = entry.get("stamps")
    flags = entry.get("flags")
    if not isinstance(recorded, list) or not isinstance(flags, list):
        return None
    return flags if unchanged(recorded) else None


def watched_paths(before: set[str], extra: Iterable[str]) -> list[str]:
    """Return what a load depended on: files of the modules imported since `before` (a set of
    module names), `extra` paths (settings, extension folders), and the `sys.path` folders."""
    files = []
    for name, module in list(sys.modules.items()):
        if name in before:
            continue
        file = getattr(module, "__file__", None)
        if isinstance(file, str):
            files.append(file)
    return [*files, *extra, *(entry for entry in sys.path if entry)]


def store_flags(key: str, flags: list[dict[str, Any]], paths: list[str]) -> None:
    """Remember `flags` under `key` with the stamps of `paths`; failures are ignored (a cache)."""
    if os.environ.get(DISABLE_ENV):
        return
    entries = read_entries(cache_file(), CACHE_VERSION)
    entry = {"flags": flags, "stamps": stamps(paths)}
    store_entry(cache_file(), CACHE_VERSION, entries, key, entry, MAX_ENTRIES)
