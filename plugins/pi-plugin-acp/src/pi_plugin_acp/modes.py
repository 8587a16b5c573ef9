"""Session modes: how much the permission gate lets through without asking the editor.

The ids are the ones Claude Code's ACP adapter uses, so a Zed user recognises them: `default`
asks for every call that may change something, `acceptEdits` lets `write` and `edit` of files
inside the session's folder run without asking, `plan` is read-only (only read, grep, find and
ls run; every other tool is refused without asking).
"""

from __future__ import annotations

import os
from typing import Any

from acp.schema import CurrentModeUpdate, SessionMode, SessionModeState

from pi_core.tools import resolve_to_cwd
from pi_plugin_acp.rules import Verdict

DEFAULT = "default"
ACCEPT_EDITS = "acceptEdits"
PLAN = "plan"

READ_ONLY_TOOLS = frozenset({"read", "ls", "grep", "find"})
EDIT_TOOLS = frozenset({"write", "edit"})

MODES = [
    SessionMode(
        id=DEFAULT,
        name="Default",
        description="Ask before every tool call that may change something",
    ),
    SessionMode(
        id=ACCEPT_EDITS,
        name="Accept Edits",
        description="Write and edit files in the project folder without asking; ask for the rest",
    ),
    SessionMode(
        id=PLAN,
        name="Plan (read-only)",
        description="Only read and search: writes, edits, commands and other tools are refused",
    ),
]
MODE_IDS = frozenset(mode.id for mode in MODES)


class SessionModeHolder:
    """The mode one session is in; the gate reads it for every tool call."""

    def __init__(self, current: str = DEFAULT) -> None:
        self.current = current

    def state(self) -> SessionModeState:
        """The modes on offer and the current one, for `session/new` and the like."""
        return SessionModeState(current_mode_id=self.current, available_modes=MODES)


def mode_update(mode_id: str) -> CurrentModeUpdate:
    """A `current_mode_update` announcing `mode_id`."""
    return CurrentModeUpdate(session_update="current_mode_update", current_mode_id=mode_id)


def mode_verdict(mode: str, tool: str, arguments: Any, cwd: str) -> Verdict | None:
    """What the mode alone decides for a call (None: the rules or the editor decide)."""
    if tool in READ_ONLY_TOOLS:
        return "allow"
    if mode == PLAN:
        return "reject"
    if mode == ACCEPT_EDITS and tool in EDIT_TOOLS and _inside(arguments, cwd):
        return "allow"
    return None


def _inside(arguments: Any, cwd: str) -> bool:
    """Whether the call's `path` names a file inside `cwd` (`@`, `~`, `..` and links resolved)."""
    # the built-in tools' inputs are models; a plugin's may be a plain dict
    path = (
        arguments.get("path") if isinstance(arguments, dict) else getattr(arguments, "path", None)
    )
    if not isinstance(path, str) or not path:
        return False
    root = os.path.realpath(cwd)
    target = os.path.realpath(resolve_to_cwd(path, root))  # as the tool will open it
    return target != root and os.path.commonpath([root, target]) == root
