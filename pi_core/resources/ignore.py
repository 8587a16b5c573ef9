"""`.gitignore`-style rules for resource folders (`.gitignore`, `.ignore`, `.fdignore`).

Rules from a nested folder are prefixed with that folder's path relative to the scan root, as pi
does, and the last matching rule wins; a path inside an ignored folder stays ignored.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

IGNORE_FILE_NAMES = (".gitignore", ".ignore", ".fdignore")


def glob_to_regex(pattern: str, *, dot: bool = True) -> str:
    """Translate a glob (`*`, `**`, `?`, `[...]`) to a regular expression over posix paths."""
    out: list[str] = []
    i = 0
    while i < len(pattern):
        char = pattern[i]
        if char == "*":
            if pattern[i : i + 2] == "**":
                i += 2
                if pattern[i : i + 1] == "/":
                    out.append("(?:.*/)?")
                    i += 1
                else:
                    out.append(".*")
                continue
            out.append("[^/]*" if dot else "(?!\\.)[^/]*")
        elif char == "?":
            out.append("[^/]")
        elif char == "[":
            end = pattern.find("]", i + 2)
            if end == -1:
                out.append(re.escape(char))
            else:
                body = pattern[i + 1 : end]
                if body.startswith("!"):
                    body = "^" + body[1:]
                out.append(f"[{body.replace(chr(92), chr(92) * 2)}]")
                i = end
        elif char == "\\" and i + 1 < len(pattern):
            i += 1
            out.append(re.escape(pattern[i]))
        else:
            out.append(re.escape(char))
        i += 1
    return "".join(out)


@dataclass(frozen=True)
class _Rule:
    regex: re.Pattern[str]
    negated: bool
    dir_only: bool


def _compile(pattern: str) -> _Rule | None:
    negated = pattern.startswith("!")
    if negated:
        pattern = pattern[1:]
    pattern = pattern.rstrip(" ") if not pattern.endswith("\\ ") else pattern
    dir_only = pattern.endswith("/")
    pattern = pattern.rstrip("/")
    if not pattern:
        return None
    anchored = "/" in pattern
    pattern = pattern.lstrip("/")
    body = glob_to_regex(pattern)
    regex = f"^{body}$" if anchored else f"^(?:.*/)?{body}$"
    return _Rule(re.compile(regex), negated, dir_only)


@dataclass
class IgnoreMatcher:
    """Accumulates ignore rules and answers whether a relative posix path is ignored."""

    rules: list[_Rule] = field(default_factory=list)

    def add(self, patterns: list[str]) -> None:
        """Add already-prefixed patterns (`!` negates, a trailing `/` matches folders only)."""
        for pattern in patterns:
            rule = _compile(pattern)
            if rule is not None:
                self.rules.append(rule)

    def _test(self, path: str, is_dir: bool) -> bool | None:
        verdict: bool | None = None
        for rule in self.rules:
            if rule.dir_only and not is_dir:
                continue
            if rule.regex.match(path):
                verdict = not rule.negated
        return verdict

    def ignores(self, rel_path: str) -> bool:
        """Return whether `rel_path` (a trailing `/` marks a folder) is ignored."""
        if not self.rules:
            return False
        is_dir = rel_path.endswith("/")
        parts = rel_path.rstrip("/").split("/")
        for depth in range(1, len(parts)):
            if self._test("/".join(parts[:depth]), True):
                return True
        return bool(self._test("/".join(parts), is_dir))


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
