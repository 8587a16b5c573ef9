"""Glob patterns as fd reads them: `*` stays within a folder, `**/` spans folders, `{a,b}`."""

from __future__ import annotations

from typing import Protocol


class Glob(Protocol):
    """A compiled glob."""

    def match(self, filename: str) -> bool:
        """Return whether the whole path matches."""


def compile_glob(pattern: str, smart_case: bool = True) -> Glob:
    """Compile a glob; with smart case, an all-lowercase pattern ignores case (as fd does).

    Hidden names match (pi runs fd with `--hidden`); `match(path)` returns a bool.
    """
    from wcmatch import glob  # imported by the first find call, not at start-up

    flags = glob.GLOBSTAR | glob.BRACE | glob.DOTMATCH | glob.FORCEUNIX
    if smart_case and pattern == pattern.lower():
        flags |= glob.IGNORECASE
    return glob.compile(pattern, flags=flags)
