"""LS's listing: the folder's whole tree, breadth first up to a limit, as Claude Code's LS."""

from __future__ import annotations

import fnmatch
import os
from collections import deque
from collections.abc import Sequence

from pi_plugin_tools.api import list_entries

LS_LIMIT = 1000
"""Entries listed before the tree is cut (Claude's LS stops at 1000 too)."""


def _skipped(name: str, ignore: Sequence[str]) -> bool:
    """Hidden entries, `__pycache__` and the call's ignore globs are left out, as in Claude."""
    bare = name.rstrip("/")
    return (
        bare.startswith(".")
        or bare == "__pycache__"
        or any(fnmatch.fnmatch(bare, glob) for glob in ignore)
    )


def collect(folder: str, ignore: Sequence[str], limit: int = LS_LIMIT) -> tuple[list[str], bool]:
    """Paths under `folder` relative to it (folders end in `/`), nearest first; cut or not."""
    found: list[str] = []
    queue: deque[str] = deque([""])
    while queue:
        relative = queue.popleft()
        try:
            entries, _ = list_entries(os.path.join(folder, relative), limit + 1)
        except OSError:
            if not relative:
                raise
            continue  # an unreadable subfolder is listed, not entered
        for entry in entries:
            if _skipped(entry, ignore):
                continue
            if len(found) >= limit:
                return found, True
            found.append(relative + entry)
            if entry.endswith("/"):
                queue.append(relative + entry)
    return found, False


def draw_tree(folder: str, paths: Sequence[str]) -> list[str]:
    """`- /folder/` and each path indented two spaces per level under its parent folder."""
    lines = [f"- {folder.rstrip(os.sep)}/"]
    for path in sorted(paths, key=lambda p: p.rstrip("/").split("/")):
        parts = path.rstrip("/").split("/")
        lines.append("  " * len(parts) + "- " + parts[-1] + ("/" if path.endswith("/") else ""))
    return lines
