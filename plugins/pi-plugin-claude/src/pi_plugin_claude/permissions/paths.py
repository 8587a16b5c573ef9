"""Resolving the path a call names before any rule sees it: `@`, `~`, `//`, `..` and symlinks.

A rule is matched against every spelling a path may reach: as the tool will read it (a
leading `@` dropped, exactly as pi's tools do, via `pi_core.tools.expand_path`), as Claude's
tools read it (the `@` kept), and each of those with its symlinks resolved. A deny on any
spelling denies; an allow or a working-folder check must hold for all of them.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass

from pi_core.tools import resolve_to_cwd


@dataclass(frozen=True)
class ResolvedPath:
    """One path as given (absolute, normalised) and as it really is (symlinks resolved)."""

    given: str
    real: str

    def spellings(self) -> tuple[str, ...]:
        """The given path and, if different, the real one."""
        return (self.given,) if self.given == self.real else (self.given, self.real)


def normalize(path: str) -> str:
    """`//etc//x/../y` as `/etc/y`: one leading slash, no `.`, `..` or doubled slashes."""
    normal = os.path.normpath(path)
    return "/" + normal.lstrip("/") if normal.startswith("//") else normal


def real_path(path: str) -> str:
    """The path with its symlinks resolved (a missing file: in its parent's real folder)."""
    try:
        return normalize(os.path.realpath(path))
    except (OSError, ValueError):  # a NUL byte or an unreadable folder: the tool will fail too
        return normalize(path)


def resolve_call_path(raw: str, cwd: str, home: str) -> ResolvedPath:
    """Resolve the path a tool call names the way pi's tools open it (`@` dropped, `~` = home)."""
    given = normalize(resolve_to_cwd(raw, cwd, home))
    return ResolvedPath(given, real_path(given))


def _literal(raw: str, cwd: str, home: str) -> ResolvedPath:
    """The path as Claude's own tools open it: `@` and unicode spaces kept, `~user` expanded."""
    if raw == "~" or raw.startswith("~/"):
        expanded = home + raw[1:]
    else:
        expanded = os.path.expanduser(raw) if raw.startswith("~") else raw
    given = normalize(os.path.join(cwd, expanded))
    return ResolvedPath(given, real_path(given))


def call_spellings(raw: str, cwd: str, home: str) -> list[str]:
    """Every absolute path `raw` may reach, as pi's and Claude's tools open it, given and real."""
    found = list(resolve_call_path(raw, cwd, home).spellings())
    return found + [p for p in _literal(raw, cwd, home).spellings() if p not in found]


def is_inside(path: str, roots: Iterable[str]) -> bool:
    """Whether `path` is one of `roots` or lies below one (whole path components only)."""
    return any(path == root or path.startswith(root.rstrip("/") + "/") for root in roots)


def root_spellings(roots: Iterable[str]) -> list[str]:
    """Each root folder as given and as it really is (a symlinked cwd counts both ways)."""
    found: list[str] = []
    for root in roots:
        for spelling in (normalize(root), real_path(root)):
            if spelling not in found:
                found.append(spelling)
    return found
