"""The names of pi's built-in slash commands, shared by the REPL's table and the plugin registry."""

from __future__ import annotations

BUILTIN_COMMAND_NAMES: tuple[str, ...] = (
    "settings", "model", "scoped-models", "export", "import", "share", "copy", "name", "session",
    "changelog", "hotkeys", "fork", "clone", "tree", "login", "logout", "new", "compact",
    "resume", "reload", "quit",
)  # fmt: skip
"""pi 0.73.1's built-in commands, in its order; a plugin command of one of these is skipped."""
