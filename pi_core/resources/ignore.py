"""`.gitignore`-style rules for resource folders (`.gitignore`, `.ignore`, `.fdignore`).

Rules from a nested folder are prefixed with that folder's path relative to the scan root, as pi
does; `pathspec` applies git's rules (the last matching rule wins), and a path inside an ignored
folder stays ignored.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathspec import GitIgnoreSpec

IGNORE_FILE_NAMES = (".gitignore", ".ignore", ".fdignore")


@dataclass
class IgnoreMatcher:
    """Accumulates ignore rules and answers whether a relative posix path is ignored.

    Each path is tested with git's rules (`pathspec`); a path inside an ignored folder stays
    ignored even when a later `!rule` names it, as pi's `ignore` package decides.
    """

    patterns: list[str] = field(default_factory=list)
    _spec: GitIgnoreSpec | None = field(default=None, repr=False)

    def add(self, patterns: list[str]) -> None:
        """Add already-prefixed patterns (`!` negates, a trailing `/` matches folders only)."""
        if patterns:
            self.patterns += patterns
            self._spec = None

    def ignores(self, rel_path: str) -> bool:
        """Return whether `rel_path` (a trailing `/` marks a folder) is ignored."""
        if not self.patterns:
            return False
        if self._spec is None:
            from pathspec import GitIgnoreSpec  # only when some folder has ignore rules

            self._spec = GitIgnoreSpec.from_lines(self.patterns)
        parts = rel_path.rstrip("/").split("/")
        for depth in range(1, len(parts)):
            if self._spec.match_file("/".join(parts[:depth]) + "/"):
                return True
        return self._spec.match_file(rel_path)


def prefix_pattern(line: str, prefix: str) -> str | None:
    """Turn one ignore-file line into a rule relative to the scan root (None for blanks)."""
    trimmed = line.strip()
    if not trimmed or (trimmed.startswith("#") and not trimmed.startswith("\\#")):
        return None
    pattern = line
    negated = False
    if pattern.startswith("!"):
        negated = True
        pattern = pattern[1:]
    elif pattern.startswith("\\!"):
        pattern = pattern[1:]
    if pattern.startswith("/"):
        pattern = pattern[1:]
    prefixed = f"{prefix}{pattern}" if prefix else pattern
    return f"!{prefixed}" if negated else prefixed


def add_ignore_rules(matcher: IgnoreMatcher, folder: str, root: str) -> None:
    """Read the ignore files in `folder` into `matcher`, relative to `root`."""
    relative = os.path.relpath(folder, root)
    prefix = "" if relative == "." else relative.replace(os.sep, "/") + "/"
    for name in IGNORE_FILE_NAMES:
        try:
            with open(os.path.join(folder, name), encoding="utf-8") as handle:
                text = handle.read()
        except (OSError, UnicodeDecodeError):
            continue
        lines = [prefix_pattern(line, prefix) for line in re.split(r"\r?\n", text)]
        matcher.add([line for line in lines if line])
