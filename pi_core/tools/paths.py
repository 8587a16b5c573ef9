"""How pi's built-in tools read the path an LLM writes (`@src/a.py`, `~/notes.md`, `a\u00a0b`).

Shared by the tools themselves and by anything that must judge a path exactly as a tool
will open it (the Claude permission rules), so the two can never disagree.
"""

from __future__ import annotations

import os
import re

_UNICODE_SPACES = re.compile("[\u00a0\u2000-\u200a\u202f\u205f\u3000]")


def expand_path(path: str, home: str | None = None) -> str:
    """Drop a leading `@`, turn unicode spaces into plain ones and expand `~` (to `home`)."""
    normalized = _UNICODE_SPACES.sub(" ", path.removeprefix("@"))
    user_home = home if home is not None else os.path.expanduser("~")
    if normalized == "~":
        return user_home
    if normalized.startswith("~/"):
        return user_home + normalized[1:]
    return normalized


def resolve_to_cwd(path: str, cwd: str, home: str | None = None) -> str:
    """Return `path` made absolute against `cwd` (absolute and `~` paths are kept as given)."""
    expanded = expand_path(path, home)
    if os.path.isabs(expanded):
        return expanded
    return os.path.normpath(os.path.join(cwd, expanded))
