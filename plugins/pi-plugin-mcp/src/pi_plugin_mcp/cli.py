"""`pi mcp list | add | remove`: the servers from the shell (entry-point group `pi.commands`)."""

from __future__ import annotations

import asyncio
import json
import os
from typing import Any

import click

LOCAL_HELP = "Use the project's .pi/settings.json instead of ~/.pi/agent/settings.json."


@click.group("mcp")
def mcp_command() -> None:
    """Manage MCP servers (mcpServers in settings.json and .mcp.json)."""


@mcp_command.command("list")
@click.option("--json", "as_json", is_flag=True, help="Print the servers as JSON.")
def list_command(as_json: bool) -> None:
    """Connect to each configured server and show its state and tools."""
    from pi_plugin_mcp.manager import McpManager, format_status

    messages: list[str] = []

    async def survey() -> list[dict[str, Any]]:
        manager = McpManager(lambda message, level: messages.append(f"{level}: {message}"))
        try:
            await manager.start(None)
            return manager.status()
        finally:
            await manager.stop()

    status = asyncio.run(survey())
    if as_json:
        click.echo(json.dumps({"servers": status, "problems": messages}, indent=2))
        return
    click.echo(format_status(status))
    for message in messages:
        if not any(message.endswith(f"failed: {s['error']}") for s in status if s["error"]):
            click.echo(message, err=True)


@mcp_command.command("add", context_settings={"ignore_unknown_options": True})
@click.argument("name")
@click.argument("target")
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
@click.option(
    "-t",
    "--transport",
    type=click.Choice(["stdio", "http", "sse"]),
    default=None,
    help="stdio (a command; the default) or http / sse (a URL).",
)
@click.option("-e", "--env", "env", multiple=True, metavar="KEY=VALUE", help="Server env.")
@click.option("-H", "--header", "headers", multiple=True, metavar="'Name: value'")
@click.option("-l", "--local", is_flag=True, help=LOCAL_HELP)
def add_command(
    name: str,
    target: str,
    args: tuple[str, ...],
    transport: str | None,
    env: tuple[str, ...],
    headers: tuple[str, ...],
    local: bool,
) -> None:
    """Add a server: `pi mcp add NAME -- COMMAND [ARGS…]` or `pi mcp add -t http NAME URL`."""
    from pi_plugin_mcp.config import ConfigError, parse_server

    kind = transport or ("http" if target.startswith(("http://", "https://")) else "stdio")
    entry: dict[str, Any]
    if kind == "stdio":
        entry = {"command": target, "args": list(args)}
        if env:
            entry["env"] = dict(_pair(item, "=", "-e") for item in env)
    else:
        if args:
            raise click.UsageError(f"a {kind} server takes a URL and no further arguments")
        entry = {"type": kind, "url": target}
        if headers:
            entry["headers"] = dict(_pair(item, ":", "-H") for item in headers)
    try:
        environ = {**os.environ, **_placeholders(entry)}
        parse_server(name, entry, "the command line", environ=environ)
    except ConfigError as error:
        raise click.ClickException(str(error)) from None
    path = _edit(local, lambda servers: {**servers, name: entry})
    click.echo(f"Added MCP server {name!r} to {path}")


@mcp_command.command("remove")
@click.argument("name")
@click.option("-l", "--local", is_flag=True, help=LOCAL_HELP)
def remove_command(name: str, local: bool) -> None:
    """Remove a server from the settings."""

    def without(servers: dict[str, Any]) -> dict[str, Any]:
        if name not in servers:
            raise click.ClickException(f"No MCP server named {name!r} in the settings")
        return {key: value for key, value in servers.items() if key != name}

    path = _edit(local, without)
    click.echo(f"Removed MCP server {name!r} from {path}")


def _edit(local: bool, change: Any) -> str:
    """Apply `change` to the chosen settings file's `mcpServers`; return the file's path."""
    from pi_plugin_mcp._pi import SettingsManager, agent_dir

    home = agent_dir()
    settings = SettingsManager.create(os.getcwd(), str(home))
    raw = settings.get_project_settings() if local else settings.get_global_settings()
    servers = raw.get("mcpServers") or {}
    if not isinstance(servers, dict):
        raise click.ClickException("`mcpServers` in the settings is not an object")
    try:
        settings.set("mcpServers", change(servers), "project" if local else "global")
    except click.ClickException:
        raise
    except Exception as error:  # a settings file that cannot be written: say why, keep it
        raise click.ClickException(str(error)) from None
    if local:
        return os.path.join(os.getcwd(), ".pi", "settings.json")
    return str(home / "settings.json")


def _pair(item: str, separator: str, flag: str) -> tuple[str, str]:
    key, found, value = item.partition(separator)
    if not found or not key.strip():
        raise click.UsageError(f"{flag} {item!r}: expected KEY{separator}VALUE")
    return key.strip(), value.strip()


def _placeholders(entry: dict[str, Any]) -> dict[str, str]:
    """`${VAR}` references are kept as written; adding one that is unset now is allowed."""
    import re

    text = json.dumps(entry)
    return {name: "" for name in re.findall(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}", text)}


@mcp_command.command("serve")
@click.option("--approve", is_flag=True, help="Allow every tool call (default: read-only tools).")
@click.option("--expose-tools", is_flag=True, help="Also serve read, write, edit, bash, grep, "
              "find and ls as MCP tools.")  # fmt: skip
@click.option("--http", "port", type=click.IntRange(0, 65535), default=None, metavar="PORT",
              help="Serve Streamable HTTP on 127.0.0.1:PORT/mcp instead of stdio.")  # fmt: skip
def serve_command(approve: bool, expose_tools: bool, port: int | None) -> None:
    """Serve pi as an MCP server: tools pi_run and pi_reply (see docs/mcp.md)."""
    from pathlib import Path

    from pi_plugin_mcp.serve.server import PiMcpServer
    from pi_plugin_mcp.serve.transport import serve_http, serve_stdio

    server = PiMcpServer(approve=approve, expose_tools=expose_tools, cwd=Path.cwd())
    asyncio.run(serve_stdio(server) if port is None else serve_http(server, port))
