"""Turning the paths an LLM writes into absolute paths, the way pi's tools do."""

from __future__ import annotations

import os
import re
import unicodedata

from pi_core.tools import expand_path, resolve_to_cwd

_NARROW_NO_BREAK_SPACE = "\u202f"
_AM_PM = re.compile(r" (AM|PM)\.", re.IGNORECASE)

__all__ = ["expand_path", "resolve_read_path", "resolve_to_cwd", "shorten_path", "to_posix"]


def _exists(path: str) -> bool:
    return os.path.lexists(path)


def resolve_read_path(path: str, cwd: str) -> str:
    """Resolve like `resolve_to_cwd`, then try the spellings macOS uses for screenshot names."""
    resolved = resolve_to_cwd(path, cwd)
    if _exists(resolved):
        return resolved
    am_pm = _AM_PM.sub(lambda m: f"{_NARROW_NO_BREAK_SPACE}{m.group(1)}.", resolved)
    nfd = unicodedata.normalize("NFD", resolved)
    curly = resolved.replace("'", "\u2019")
    nfd_curly = nfd.replace("'", "\u2019")
    for variant in (am_pm, nfd, curly, nfd_curly):
        if variant != resolved and _exists(variant):
            return variant
    return resolved


def shorten_path(path: str) -> str:
    """Show a path under the home folder as `~/…` (for renderers)."""
    home = os.path.expanduser("~")
    if home and home != "/" and path.startswith(home):
        return "~" + path[len(home) :]
    return path


def to_posix(path: str) -> str:
    """Return `path` with `/` separators."""
    return path.replace(os.sep, "/") if os.sep != "/" else path
