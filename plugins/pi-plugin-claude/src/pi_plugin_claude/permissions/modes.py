"""Claude Code's permission modes, and which tools and commands each lets through unasked."""

from __future__ import annotations

import re
from typing import Literal, get_args

PermissionMode = Literal["default", "acceptEdits", "plan", "bypassPermissions", "dontAsk"]
MODES: tuple[str, ...] = get_args(PermissionMode)

READ_ONLY_TOOLS = frozenset(
    {"Read", "Glob", "Grep", "LS", "NotebookRead", "TodoWrite", "Task", "WebSearch", "WebFetch"}
)
"""Tools that change nothing on disk: allowed without asking in every mode, plan included."""

FILE_EDIT_TOOLS = frozenset({"Edit", "Write", "MultiEdit", "NotebookEdit"})
"""Tools acceptEdits allows inside the working directories."""

READ_ONLY_COMMANDS = frozenset(
    {"ls", "pwd", "cat", "head", "tail", "wc", "echo", "grep", "rg", "which", "whoami", "date",
     "file", "stat", "du", "df", "tree", "true", "false", "sort", "uniq", "cut", "basename",
     "dirname", "realpath", "env", "printenv", "uname", "id", "diff", "cmp", "test"}
)  # fmt: skip
"""Commands Claude treats as read-only (auto-allowed, as `ls` is in every mode)."""

READ_ONLY_GIT = frozenset({"status", "log", "diff", "show", "branch", "rev-parse", "ls-files"})

FILESYSTEM_COMMANDS = frozenset({"mkdir", "touch", "rm", "rmdir", "mv", "cp", "sed"})
"""Commands acceptEdits also allows (they edit files, as Edit does)."""

_UNSAFE = re.compile(r"[<>`]|\$\(|\b-exec\b|\b-delete\b|\s-i\b")


def parse_mode(value: str) -> PermissionMode:
    """Check a mode name; raise ValueError naming the valid ones."""
    if value not in MODES:
        raise ValueError(f"Unknown permission mode {value!r}: expected one of {', '.join(MODES)}")
    return value  # type: ignore[return-value]


def _words(command: str) -> list[str]:
    return command.split()


def is_read_only_command(command: str) -> bool:
    """Whether a simple command only reads (no redirection, substitution or in-place edit)."""
    if _UNSAFE.search(command):
        return False
    words = _words(command)
    if not words:
        return True
    if words[0] == "git":
        return len(words) > 1 and words[1] in READ_ONLY_GIT
    if words[0] == "find":
        return True  # -exec and -delete were refused above
    return words[0] in READ_ONLY_COMMANDS


def is_filesystem_command(command: str) -> bool:
    """Whether a simple command is one acceptEdits allows (mkdir, touch, rm, mv, cp, sed)."""
    words = _words(command)
    return bool(words) and words[0] in FILESYSTEM_COMMANDS and not re.search(r"[`]|\$\(", command)
