"""The editor's `mcpServers`, handed to pi-plugin-mcp for one session over the session's event
bus (`mcp:add_servers`; see pi_plugin_mcp.sessions). A session without the mcp plugin (not
installed, or blocked) has no listener, and the servers are not started."""

from __future__ import annotations

import asyncio
import contextlib
import inspect
from typing import Any

from pi_core import AgentSession

ADD_SERVERS_CHANNEL = "mcp:add_servers"
CONNECT_WAIT = 30.0
"""Seconds `session/new` waits for the editor's servers, so the first prompt has their tools."""


def server_entries(servers: Any) -> dict[str, dict[str, Any]]:
    """ACP `McpServer` objects as `mcpServers` entries (`.mcp.json`'s format), by name; `acp`
    servers (tunnelled over ACP itself) are left out."""
    entries: dict[str, dict[str, Any]] = {}
    for server in servers or []:
        kind = getattr(server, "type", None) or "stdio"
        if kind == "stdio":
            entries[server.name] = {
                "type": "stdio",
                "command": server.command,
                "args": list(server.args),
                "env": {variable.name: variable.value for variable in server.env},
            }
        elif kind in ("http", "sse"):
            entries[server.name] = {
                "type": kind,
                "url": server.url,
                "headers": {header.name: header.value for header in server.headers},
            }
    return entries


async def hand_over(session: AgentSession, servers: Any, wait: float = CONNECT_WAIT) -> None:
    """Start the editor's servers in `session` and wait (up to `wait` seconds) for them."""
    entries = server_entries(servers)
    if not entries:
        return
    data: dict[str, Any] = {"mcpServers": entries, "source": "the ACP client"}
    session.plugins.ctx.events.emit(ADD_SERVERS_CHANNEL, data)
    started = data.get("started")
    if inspect.isawaitable(started):
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.shield(started), wait)
