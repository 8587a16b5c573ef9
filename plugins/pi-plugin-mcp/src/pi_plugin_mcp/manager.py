"""The session's MCP servers: started together, their tools kept in step with pi's tool list."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mcp import types

from pi_plugin_mcp._pi import ExtensionContext, agent_dir
from pi_plugin_mcp.config import LoadedConfig, ServerConfig, config_files, load_config
from pi_plugin_mcp.connection import ServerConnection
from pi_plugin_mcp.names import unique_names
from pi_plugin_mcp.tools import InvalidSchema, McpTool, checked_schema

Report = Callable[[str, str], None]
"""Receives (message, level) for each problem; level is "warning" or "error"."""


@dataclass(frozen=True)
class ResourceRef:
    """A resource one server offers, for `@server:uri` attachment."""

    server: str
    uri: str
    name: str
    description: str | None = None
    mime_type: str | None = None


class McpManager:
    """Owns the connections of one session and registers their tools with pi."""

    def __init__(self, report: Report | None = None) -> None:
        self.connections: dict[str, ServerConnection] = {}
        self.problems: list[str] = []
        self._report = report or _stderr_report
        self._ctx: ExtensionContext | None = None
        self._registered: dict[str, dict[str, McpTool]] = {}
        self._reported: set[tuple[str, str]] = set()
        self._starting: asyncio.Task[None] | None = None

    # --- lifetime ----------------------------------------------------------------------------

    async def start(
        self,
        ctx: ExtensionContext | None,
        config: LoadedConfig | Iterable[ServerConfig] | None = None,
    ) -> None:
        """Start every server (from `config`, else the files), concurrently, each with its
        startup timeout; failures are reported, never raised."""
        self._prepare(ctx, config)
        await self._start_all()

    def _prepare(
        self, ctx: ExtensionContext | None, config: LoadedConfig | Iterable[ServerConfig] | None
    ) -> None:
        self._ctx = ctx
        if config is None:
            cwd = Path(ctx.cwd) if ctx is not None else Path.cwd()
            config = load_config(config_files(cwd, agent_dir()))
        if isinstance(config, LoadedConfig):
            self.problems = config.problems
            for problem in config.problems:
                self._once("config", problem, "warning")
            servers: Iterable[ServerConfig] = config.servers.values()
        else:
            servers = config
        for server in servers:
            self.connections[server.name] = ServerConnection(server, self._changed)

    async def _start_all(self) -> None:
        await asyncio.gather(*(c.start() for c in self.connections.values()))

    def launch(
        self,
        ctx: ExtensionContext | None,
        config: LoadedConfig | Iterable[ServerConfig] | None = None,
    ) -> None:
        """Start every server in the background and return at once; each server's tools are
        registered when it connects. `wait_started()` waits for the handshakes."""
        self._prepare(ctx, config)
        for connection in self.connections.values():
            connection.begin()
        ready = (c.wait_ready() for c in self.connections.values())
        self._starting = asyncio.create_task(_gather(ready), name="mcp servers")

    async def add(self, servers: Iterable[ServerConfig]) -> None:
        """Start more servers beside the running ones (one of the same name is replaced) and
        return once each has connected or failed."""
        fresh: list[ServerConnection] = []
        for server in servers:
            old = self.connections.pop(server.name, None)
            if old is not None:
                await old.stop()
                self._sync(server.name, [])
            connection = ServerConnection(server, self._changed)
            self.connections[server.name] = connection
            connection.begin()
            fresh.append(connection)
        await _gather(c.wait_ready() for c in fresh)

    async def wait_started(self) -> None:
        """Wait until every server launched has connected or failed (each within its timeout)."""
        if self._starting is not None:
            await asyncio.wait({self._starting})

    async def stop(self) -> None:
        """Stop every server and remove its tools."""
        starting, self._starting = self._starting, None
        if starting is not None and not starting.done():
            starting.cancel()  # stop waiting for handshakes; each runner is stopped below
            await asyncio.gather(starting, return_exceptions=True)
        await asyncio.gather(*(c.stop() for c in self.connections.values()))
        for name in list(self._registered):
            self._sync(name, [])
        self.connections.clear()

    async def restart(self, name: str) -> ServerConnection:
        """Stop one server and start it again (its failure may be reported again)."""
        connection = self.connections.get(name)
        if connection is None:
            raise KeyError(f"no MCP server named {name!r}")
        await connection.stop()
        self._reported = {key for key in self._reported if key[0] != name}
        connection.state = "stopped"
        await connection.start()
        return connection

    # --- tools -------------------------------------------------------------------------------

    def _changed(self, connection: ServerConnection) -> None:
        name = connection.name
        for warning in connection.warnings:
            self._once(name, f"MCP server {name!r} {warning}", "warning")
        if connection.state == "failed":
            self._sync(name, [])
            self._once(name, f"MCP server {name!r} failed: {connection.error}", "error")
            return
        taken = {tool for server, own in self._registered.items() if server != name for tool in own}
        names, collisions = unique_names(name, (tool.name for tool in connection.tools), taken)
        for collision in collisions:
            self._once(name, collision.message(), "warning")
        tools: list[McpTool] = []
        for tool in connection.tools:
            try:
                tools.append(McpTool(connection, tool, checked_schema(tool), names[tool.name]))
            except InvalidSchema as error:
                self._once(
                    name, f"MCP server {name!r}: tool {tool.name!r} is skipped: {error}", "warning"
                )
        self._sync(name, tools)

    def _sync(self, server: str, tools: list[McpTool]) -> None:
        """Make pi's tools for this server exactly `tools`."""
        before = self._registered.get(server, {})
        after = {tool.name: tool for tool in tools}
        ctx = self._ctx
        if ctx is not None:
            for gone in before.keys() - after.keys():
                ctx.unregister_tool(gone)
            for tool in after.values():
                ctx.register_tool(tool)
        if after:
            self._registered[server] = after
        else:
            self._registered.pop(server, None)

    def tool_names(self, server: str) -> list[str]:
        """Return the pi names of a server's registered tools."""
        return sorted(self._registered.get(server, {}))

    # --- resources and prompts ---------------------------------------------------------------

    def list_resources(self) -> list[ResourceRef]:
        """Return every connected server's resources (for `@server:uri` completion)."""
        return [
            ResourceRef(c.name, str(r.uri), r.name, r.description, r.mime_type)
            for c in self.connections.values()
            if c.state == "connected"
            for r in c.resources
        ]

    async def read_resource(self, server: str, uri: str) -> str:
        """Return a resource's contents as text, ready to attach to a prompt."""
        from pi_plugin_mcp.tools import resource_text

        result = await self._connection(server).read_resource(uri)
        return "\n".join(resource_text(contents) for contents in result.contents)

    def list_prompts(self) -> list[tuple[str, types.Prompt]]:
        """Return every connected server's prompts, with the server's name."""
        return [(c.name, p) for c in self.connections.values() for p in c.prompts]

    async def render_prompt(self, server: str, prompt: str, args: list[str]) -> str:
        """Render a server's prompt; positional `args` fill its arguments in order."""
        connection = self._connection(server)
        known = next((p for p in connection.prompts if p.name == prompt), None)
        if known is None:
            raise KeyError(f"MCP server {server!r} has no prompt {prompt!r}")
        names = [a.name for a in known.arguments or []]
        arguments = dict(zip(names, args, strict=False))
        missing = [a.name for a in known.arguments or [] if a.required and a.name not in arguments]
        if missing:
            raise ValueError(f"prompt {prompt!r} needs: {', '.join(missing)}")
        result = await connection.get_prompt(prompt, arguments)
        parts = []
        for message in result.messages:
            block = message.content
            if isinstance(block, types.TextContent):
                parts.append(block.text)
            elif isinstance(block, types.EmbeddedResource):
                from pi_plugin_mcp.tools import resource_text

                parts.append(resource_text(block.resource))
        return "\n\n".join(parts)

    def _connection(self, server: str) -> ServerConnection:
        connection = self.connections.get(server)
        if connection is None:
            raise KeyError(f"no MCP server named {server!r}")
        return connection

    # --- reporting ---------------------------------------------------------------------------

    def status(self) -> list[dict[str, Any]]:
        """Describe each server: name, state, transport, error, tools."""
        return [
            {
                "name": c.name,
                "state": c.state,
                "transport": c.config.transport,
                "target": c.config.describe(),
                "source": c.config.source,
                "error": c.error,
                "tools": self.tool_names(c.name),
                "prompts": [p.name for p in c.prompts],
                "resources": [str(r.uri) for r in c.resources],
            }
            for c in self.connections.values()
        ]

    def _once(self, key: str, message: str, level: str) -> None:
        if (key, message) in self._reported:
            return
        self._reported.add((key, message))
        self._report(message, level)


async def _gather(waits: Iterable[Awaitable[None]]) -> None:
    await asyncio.gather(*waits)


def _stderr_report(message: str, level: str) -> None:
    print(f"{level}: {message}", file=sys.stderr, flush=True)


def format_status(status: list[dict[str, Any]]) -> str:
    """Render server states for `/mcp` and `pi mcp list`."""
    if not status:
        return "No MCP servers configured (mcpServers in .mcp.json or settings.json)."
    lines = []
    for server in status:
        lines.append(f"{server['name']}  [{server['state']}]  {server['target']}")
        if server.get("error"):
            lines += [f"    {line}" for line in str(server["error"]).splitlines()]
        if server.get("tools"):
            lines.append(f"    tools: {', '.join(server['tools'])}")
        if server.get("prompts"):
            lines.append(f"    prompts: {', '.join(server['prompts'])}")
        if server.get("resources"):
            lines.append(f"    resources: {', '.join(server['resources'])}")
    return "\n".join(lines)
