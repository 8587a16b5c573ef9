"""Servers a host hands one session (an editor's `mcpServers` over ACP), started beside the
configured ones and stopped with the session."""

from __future__ import annotations

import asyncio
from typing import Any

from pi_plugin_mcp._pi import ExtensionContext
from pi_plugin_mcp.config import ConfigError, ServerConfig, parse_server
from pi_plugin_mcp.manager import McpManager, Report
from pi_plugin_mcp.sessions import session_servers


def parse_entries(data: dict[str, Any], report: Report) -> list[ServerConfig]:
    """The valid entries of `data["mcpServers"]`; each bad one is reported and skipped."""
    entries = data.get("mcpServers")
    source = str(data.get("source") or "the session's host")
    servers: list[ServerConfig] = []
    for name, raw in (entries if isinstance(entries, dict) else {}).items():
        try:
            servers.append(parse_server(str(name), raw, source))
        except ConfigError as error:
            report(str(error), "warning")
    return servers


def add_to_session(
    ctx: ExtensionContext, data: dict[str, Any], report: Report
) -> asyncio.Task[None]:
    """Start the servers in `data` for `ctx`'s session; the task ends when each has connected
    or failed (within its startup timeout)."""
    servers = parse_entries(data, report)
    state = session_servers(ctx)
    if state.manager is None:
        state.manager = McpManager(report)
        state.manager.launch(ctx, [])
    return asyncio.ensure_future(state.manager.add(servers))
