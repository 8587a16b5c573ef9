"""Which Claude settings gate belongs to which pi session.

`pi acp` and `pi mcp serve` run several sessions, in different folders, in one process, each
with its own plugin runtime; the plugin's hooks are shared module functions. Each runtime's
state is kept here, keyed by its event bus (`ctx.events`, one per runtime), so a session is
judged by its own folder's rules and never by another session's gate.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pi_plugin_claude.bridge import ClaudeCompat


@dataclass
class ClaudeSession:
    """What one session turned on: the profile, its settings gate, or why the gate is closed."""

    profile: bool = False
    compat: ClaudeCompat | None = None
    broken: str | None = None
    """Why the gate could not be set up: while set, every tool call of this session is refused."""
    closed: str | None = None
    """Why a broken settings file keeps the gate closed: every tool call is refused, and the
    gate is set up again at each call until the file is fixed."""
    gate_ready: bool = False
    """Whether setting up the gate was tried (again at a later start only while it is off)."""


_by_bus: weakref.WeakKeyDictionary[Any, ClaudeSession] = weakref.WeakKeyDictionary()


def claude_session(ctx: Any) -> ClaudeSession:
    """Return the state of the session `ctx` belongs to (made on first use)."""
    state = _by_bus.get(ctx.events)
    if state is None:
        state = ClaudeSession()
        _by_bus[ctx.events] = state
    return state


def known_session(ctx: Any) -> ClaudeSession | None:
    """The state of the session `ctx` belongs to, or None when it has none yet."""
    return _by_bus.get(ctx.events)


def forget_session(ctx: Any) -> None:
    """Drop the state of the session `ctx` belongs to (it has ended)."""
    _by_bus.pop(ctx.events, None)
