"""The project's files for `@` search: a walk that honours .gitignore, cached for a few seconds."""

from __future__ import annotations

import os
import time
from pathlib import Path

from pi_core.resources.ignore import add_folder_rules
from pi_core.resources.walk_rules import rules_above

MAX_FILES = 50_000
REFRESH_SECONDS = 5.0


def project_files(root: Path) -> list[str]:
    """Relative paths of files and folders (folders end in `/`), minus .git and ignored ones.

    The files `fd --hidden --follow` offers pi's `@` search, with the ignore rules `fd` applies
    (`pi_core.resources.walk_rules`); a linked folder is entered unless it loops back.
    """
    found: list[str] = []
    root = Path(os.path.abspath(root))
    matcher, prefix, names = rules_above(root)

    chain: list[str] = []  # the real paths of the folders being walked, for links that loop

    def walk(folder: str, real_folder: str, rel: str) -> None:
        add_folder_rules(matcher, folder, prefix + rel, names)
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError:
            return
        chain.append(real_folder)
        for entry in entries:
            if len(found) >= MAX_FILES or entry.name == ".git":
                continue
            child = rel + entry.name
            is_dir = _is_dir(entry)
            if matcher.ignores_entry(prefix + child + ("/" if is_dir else "")):
                continue
            if not is_dir:
                found.append(child)
                continue
            if entry.is_symlink():
                real = os.path.realpath(entry.path)
                if real in chain:  # a link back to a folder above: fd reports a loop, lists nothing
                    continue
            else:
                real = os.path.join(real_folder, entry.name)
            found.append(child + "/")
            walk(entry.path, real, child + "/")
        chain.pop()

    walk(str(root), os.path.realpath(root), "")
    return found


def _is_dir(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir()
    except OSError:
        return False


class FileIndex:
    """`project_files` of one folder, re-read when older than a few seconds."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._files: list[str] = []
        self._read_at = 0.0

    def files(self) -> list[str]:
        """Return the cached list, refreshing it when stale."""
        if time.monotonic() - self._read_at > REFRESH_SECONDS:
            self._files = project_files(self.root)
            self._read_at = time.monotonic()
        return self._files


def path_rank(query: str, path: str) -> int | None:
    """Rank a path for an `@` query as pi does (lower is better); None when it does not match.

    Best is a name equal to the query, then one starting with it, then one containing it, then a
    path containing it; a folder ranks just above a file of the same kind. No scattered letters:
    pi's `@` search is a substring search, unlike its fuzzy selectors (`pi_core.fuzzy`).
    """
    if not query:
        return 0
    q = query.lower()
    name = path.rstrip("/").rsplit("/", 1)[-1].lower()
    if name == q:
        tier = 0
    elif name.startswith(q):
        tier = 1
    elif q in name:
        tier = 2
    elif q in path.lower():
        tier = 3
    else:
        return None
    return tier * 2 + (0 if path.endswith("/") else 1)


def search(files: list[str], query: str, limit: int = 20) -> list[str]:
    """The best `limit` paths for a query: by `path_rank`, then shorter first."""
    ranked = []
    for path in files:
        rank = path_rank(query, path)
        if rank is not None:
            ranked.append((rank, len(path), path))
    ranked.sort()
    return [path for _, _, path in ranked[:limit]]
