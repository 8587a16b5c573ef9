"""The project's files for `@` search: a walk that honours .gitignore, cached for a few seconds."""

from __future__ import annotations

import fnmatch
import os
import time
from dataclasses import dataclass, field
from pathlib import Path

MAX_FILES = 50_000
REFRESH_SECONDS = 5.0


@dataclass
class _Rules:
    base: str
    patterns: list[tuple[str, bool, bool, bool]] = field(default_factory=list)
    """(pattern, negated, directory_only, anchored)"""


def _read_rules(folder: str, rel: str) -> _Rules | None:
    path = os.path.join(folder, ".gitignore")
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            lines = handle.read().splitlines()
    except OSError:
        return None
    rules = _Rules(rel)
    for raw in lines:
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        negated = line.startswith("!")
        line = line.removeprefix("!")
        directory_only = line.endswith("/")
        line = line.rstrip("/")
        anchored = "/" in line
        rules.patterns.append((line.lstrip("/"), negated, directory_only, anchored))
    return rules


def _ignored(rules: list[_Rules], rel: str, is_dir: bool) -> bool:
    ignored = False
    name = rel.rsplit("/", 1)[-1]
    for rule in rules:
        local = rel[len(rule.base) + 1 :] if rule.base else rel
        for pattern, negated, directory_only, anchored in rule.patterns:
            if directory_only and not is_dir:
                continue
            target = local if anchored else name
            if fnmatch.fnmatchcase(target, pattern) or (
                anchored and fnmatch.fnmatchcase(local, pattern + "/*")
            ):
                ignored = not negated
    return ignored


def project_files(root: Path) -> list[str]:
    """Relative paths of files and folders (folders end in `/`), minus .git and ignored ones."""
    found: list[str] = []
    start = str(root)

    def walk(folder: str, rel: str, rules: list[_Rules]) -> None:
        own = _read_rules(folder, rel)
        active = [*rules, own] if own else rules
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError:
            return
        for entry in entries:
            if len(found) >= MAX_FILES or entry.name == ".git":
                continue
            child = f"{rel}/{entry.name}" if rel else entry.name
            is_dir = entry.is_dir(follow_symlinks=False)
            if _ignored(active, child, is_dir):
                continue
            if is_dir:
                found.append(child + "/")
                walk(entry.path, child, active)
            else:
                found.append(child)

    walk(start, "", [])
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


def fuzzy_score(query: str, path: str) -> int | None:
    """Score a path for a query (higher is better); None when the letters do not all appear."""
    if not query:
        return 1
    q = query.lower()
    name = path.rstrip("/").rsplit("/", 1)[-1].lower()
    lowered = path.lower()
    bonus = 10 if path.endswith("/") else 0
    if name == q:
        return 100 + bonus
    if name.startswith(q):
        return 80 + bonus
    if q in name:
        return 50 + bonus
    if q in lowered:
        return 30 + bonus
    position = 0
    for char in q:
        position = lowered.find(char, position)
        if position < 0:
            return None
        position += 1
    return 10 + bonus


def search(files: list[str], query: str, limit: int = 20) -> list[str]:
    """The best `limit` paths for a fuzzy query."""
    scored = []
    for path in files:
        score = fuzzy_score(query, path)
        if score is not None:
            scored.append((-score, len(path), path))
    scored.sort()
    return [path for _, _, path in scored[:limit]]
