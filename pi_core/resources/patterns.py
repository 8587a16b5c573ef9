"""The patterns allowed in settings resource arrays: globs, `!exclude`, `+force`, `-force`.

    "skills": ["./more-skills", "!**/draft-*", "+skills/draft-ok", "-skills/broken"]

Plain entries are paths; entries with `*` or `?` are include globs; `!glob` excludes; `+path`
forces an exact path back in; `-path` forces it out (and wins over `+`).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from functools import lru_cache


def is_pattern(entry: str) -> bool:
    """Return whether a settings entry is a pattern rather than a plain path."""
    return entry.startswith(("!", "+", "-")) or "*" in entry or "?" in entry


def is_override(entry: str) -> bool:
    """Return whether a settings entry is an override (`!`, `+` or `-`)."""
    return entry.startswith(("!", "+", "-"))


def split_patterns(entries: Iterable[str]) -> tuple[list[str], list[str]]:
    """Split settings entries into (plain paths, patterns)."""
    plain: list[str] = []
    patterns: list[str] = []
    for entry in entries:
        (patterns if is_pattern(entry) else plain).append(entry)
    return plain, patterns


@lru_cache(maxsize=256)
def _glob(pattern: str) -> Callable[[str], bool]:
    """Compile a glob as pi's `minimatch` reads it: `**`, `{a,b}`, extglobs, no implicit dots."""
    from wcmatch import glob  # only when settings hold patterns

    flags = glob.GLOBSTAR | glob.BRACE | glob.EXTGLOB | glob.FORCEUNIX
    return glob.compile(pattern, flags=flags).match


def _posix(path: str) -> str:
    return path.replace(os.sep, "/")


def _candidates(path: str, base_dir: str, *, exact: bool) -> list[str]:
    rel = _posix(os.path.relpath(path, base_dir))
    full = _posix(path)
    names = [rel, full] if exact else [rel, os.path.basename(path), full]
    if os.path.basename(path) == "SKILL.md":
        parent = os.path.dirname(path)
        parent_rel = _posix(os.path.relpath(parent, base_dir))
        names += (
            [parent_rel, _posix(parent)]
            if exact
            else [
                parent_rel,
                os.path.basename(parent),
                _posix(parent),
            ]
        )
    return names


def matches_any(path: str, patterns: list[str], base_dir: str) -> bool:
    """Return whether a glob matches the path (relative, base name, or absolute).

    For a `SKILL.md` the skill's folder is tried as well.
    """
    names = _candidates(path, base_dir, exact=False)
    return any(_glob(_posix(p))(name) for p in patterns for name in names)


def matches_any_exact(path: str, patterns: list[str], base_dir: str) -> bool:
    """Return whether a pattern names the path exactly (relative or absolute, `./` allowed)."""
    if not patterns:
        return False
    names = _candidates(path, base_dir, exact=True)
    for pattern in patterns:
        normalized = _posix(pattern[2:] if pattern.startswith(("./", ".\\")) else pattern)
        if normalized in names:
            return True
    return False


def _split_overrides(patterns: Iterable[str]) -> tuple[list[str], list[str], list[str]]:
    excludes = [p[1:] for p in patterns if p.startswith("!")]
    force_in = [p[1:] for p in patterns if p.startswith("+")]
    force_out = [p[1:] for p in patterns if p.startswith("-")]
    return excludes, force_in, force_out


def apply_patterns(paths: list[str], patterns: list[str], base_dir: str) -> set[str]:
    """Return the paths the patterns enable (includes, then excludes, `+`, `-`)."""
    includes = [p for p in patterns if not is_override(p)]
    excludes, force_in, force_out = _split_overrides(patterns)
    result = [p for p in paths if not includes or matches_any(p, includes, base_dir)]
    if excludes:
        result = [p for p in result if not matches_any(p, excludes, base_dir)]
    for path in paths:
        if force_in and path not in result and matches_any_exact(path, force_in, base_dir):
            result.append(path)
    if force_out:
        result = [p for p in result if not matches_any_exact(p, force_out, base_dir)]
    return set(result)


def enabled_by_overrides(path: str, entries: list[str], base_dir: str) -> bool:
    """Return whether a discovered resource stays enabled under a scope's override entries."""
    excludes, force_in, force_out = _split_overrides([e for e in entries if is_override(e)])
    enabled = True
    if excludes and matches_any(path, excludes, base_dir):
        enabled = False
    if force_in and matches_any_exact(path, force_in, base_dir):
        enabled = True
    if force_out and matches_any_exact(path, force_out, base_dir):
        enabled = False
    return enabled
