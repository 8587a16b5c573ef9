"""Which MCP servers belong to which pi session.

Several sessions may run in one process (`pi acp`, `pi mcp serve`), each with its own plugin
runtime; the plugin's hooks are shared module functions. Each runtime's state is kept here, keyed
by its event bus (`ctx.events`, one per runtime), so a session only ever sees its own servers.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pi_plugin_mcp.manager import McpManager

ADD_SERVERS_CHANNEL = "mcp:add_servers"
"""`ctx.events` channel on which a host (pi acp) hands this session more servers: the data is a
dict with `mcpServers` (name -> entry, as in `.mcp.json`) and `source`; the plugin puts a
`started` awaitable in it that ends when those servers have connected or failed."""


@dataclass
class SessionServers:
    """One session's MCP state: its manager (None while it has no servers)."""

    manager: McpManager | None = None


_by_bus: weakref.WeakKeyDictionary[Any, SessionServers] = weakref.WeakKeyDictionary()
_latest: list[weakref.ReferenceType[SessionServers]] = []


def session_servers(ctx: Any) -> SessionServers:
    """Return the state of the session `ctx` belongs to (made on first use)."""
    bus = ctx.events
    state = _by_bus.get(bus)
    if state is None:
        state = SessionServers()
        _by_bus[bus] = state
    return state


def known(ctx: Any) -> bool:
    """Whether the session `ctx` belongs to has state here already."""
    return ctx.events in _by_bus


def mark_latest(state: SessionServers) -> None:
    """Remember `state` as the session that started last (for `latest_manager`)."""
    _latest[:] = [weakref.ref(state)]


def latest_manager() -> McpManager | None:
    """The manager of the session that started last (the REPL has only one session)."""
    state = _latest[0]() if _latest else None
    return state.manager if state is not None else None
