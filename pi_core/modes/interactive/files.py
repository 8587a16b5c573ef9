"""The project's files for `@` search: a walk that honours .gitignore, cached for a few seconds."""

from __future__ import annotations

import os
import time
from pathlib import Path

from pi_core.resources.discovery import find_git_root
from pi_core.resources.ignore import (
    IGNORE_FILE_NAMES,
    IgnoreMatcher,
    add_folder_rules,
    add_git_exclude,
)

MAX_FILES = 50_000
REFRESH_SECONDS = 5.0


def _git_dir(top: Path) -> Path:
    """The repository's git folder: `.git` itself, or where a `.git` file (a worktree) points."""
    marker = top / ".git"
    if marker.is_file():
        text = marker.read_text(encoding="utf-8", errors="replace").strip()
        if text.startswith("gitdir:"):
            return top / text.removeprefix("gitdir:").strip()
    return marker


def _rules_above(root: Path) -> tuple[IgnoreMatcher, str, tuple[str, ...]]:
    """The matcher primed with the rules above `root`, root's path in it, the ignore files read.

    As `fd` does: `.gitignore` and `.git/info/exclude` only inside a git repository, then the
    ignore files of every folder from the repository's top down to `root`.
    """
    matcher = IgnoreMatcher()
    top_name = find_git_root(str(root))
    if top_name is None:
        return matcher, "", tuple(n for n in IGNORE_FILE_NAMES if n != ".gitignore")
    top = Path(top_name)
    add_git_exclude(matcher, str(_git_dir(top)))
    for folder in reversed([root, *root.parents][: len(root.parents) - len(top.parents) + 1]):
        if folder != root:
            rel = folder.relative_to(top).as_posix()
            add_folder_rules(matcher, str(folder), "" if rel == "." else rel + "/")
    rel = root.relative_to(top).as_posix()
    return matcher, "" if rel == "." else rel + "/", IGNORE_FILE_NAMES


def project_files(root: Path) -> list[str]:
    """Relative paths of files and folders (folders end in `/`), minus .git and ignored ones.

    The files `fd --hidden` offers pi's `@` search: `.gitignore` (inside a git repository),
    `.ignore` and `.fdignore` in every folder, and `.git/info/exclude`, with git's rules.
    """
    found: list[str] = []
    root = Path(os.path.abspath(root))
    matcher, prefix, names = _rules_above(root)

    def walk(folder: str, rel: str) -> None:
        add_folder_rules(matcher, folder, prefix + rel, names)
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError:
            return
        for entry in entries:
            if len(found) >= MAX_FILES or entry.name == ".git":
                continue
            child = rel + entry.name
            is_dir = entry.is_dir(follow_symlinks=False)
            if matcher.ignores_entry(prefix + child + ("/" if is_dir else "")):
                continue
            if is_dir:
                found.append(child + "/")
                walk(entry.path, child + "/")
            else:
                found.append(child)

    walk(str(root), "")
    return found


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
