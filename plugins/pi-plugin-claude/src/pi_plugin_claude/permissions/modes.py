"""Claude Code's permission modes, and which tools and commands each lets through unasked."""

from __future__ import annotations

from typing import Literal, get_args

PermissionMode = Literal["default", "acceptEdits", "plan", "bypassPermissions", "dontAsk"]
MODES: tuple[str, ...] = get_args(PermissionMode)

READ_ONLY_TOOLS = frozenset(
    {"Read", "Glob", "Grep", "LS", "NotebookRead", "TodoWrite", "Task", "WebSearch", "WebFetch"}
)
"""Tools that change nothing on disk: allowed without asking in every mode, plan included."""

FILE_EDIT_TOOLS = frozenset({"Edit", "Write", "MultiEdit", "NotebookEdit"})
"""Tools acceptEdits allows inside the working directories."""

FILESYSTEM_COMMANDS = frozenset({"mkdir", "touch", "rm", "rmdir", "mv", "cp", "sed"})
"""Commands acceptEdits also allows (they edit files, as Edit does)."""


def parse_mode(value: str) -> PermissionMode:
    """Check a mode name; raise ValueError naming the valid ones."""
    if value not in MODES:
        raise ValueError(f"Unknown permission mode {value!r}: expected one of {', '.join(MODES)}")
    return value  # type: ignore[return-value]
