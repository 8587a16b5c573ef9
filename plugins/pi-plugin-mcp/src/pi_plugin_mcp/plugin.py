"""The pi plugin: MCP servers start with the session, their tools join pi's, `/mcp` manages them.

MCP prompts are typed as `/mcp__<server>__<prompt> args`: the `input` hook renders them, so they
read like prompt templates.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shlex
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pi_plugin_mcp._pi import (
    CommandContext,
    ExtensionContext,
    InputEvent,
    InputTransform,
    hookimpl,
)
from pi_plugin_mcp.config import tool_name
from pi_plugin_mcp.sessions import (
    ADD_SERVERS_CHANNEL,
    known,
    latest_manager,
    mark_latest,
    session_servers,
)

if TYPE_CHECKING:  # the SDK is imported only when a server is configured
    from pi_plugin_mcp.manager import McpManager


def current_manager(ctx: ExtensionContext | None = None) -> McpManager | None:
    """Return the MCP manager of `ctx`'s session (without `ctx`: of the session that started
    last, which in the REPL is the only one)."""
    if ctx is None:
        return latest_manager()
    return session_servers(ctx).manager if known(ctx) else None


def _reporter(ctx: ExtensionContext) -> Callable[[str, str], None]:
    def report(message: str, level: str) -> None:
        if ctx.has_ui:
            ctx.ui.notify(message, "error" if level == "error" else "warning")
        else:
            print(f"{level}: {message}", file=sys.stderr, flush=True)

    return report


@hookimpl
async def session_start(ctx: ExtensionContext) -> None:
    """Start the configured MCP servers in the background, each one's tools joining pi's when
    it connects; print mode first waits a moment for them."""
    first = not known(ctx)
    state = session_servers(ctx)
    mark_latest(state)
    if first:  # one subscription per session runtime, kept across /new and /fork
        ctx.events.on(ADD_SERVERS_CHANNEL, lambda data: _add_servers(ctx, data))
    if state.manager is not None:
        await state.manager.stop()
        state.manager = None
    from pathlib import Path

    from pi_plugin_mcp._pi import agent_dir
    from pi_plugin_mcp.config import config_files, load_config

    loaded = load_config(config_files(Path(ctx.cwd), agent_dir()))
    if not loaded.servers and not loaded.problems:
        return
    from pi_plugin_mcp.manager import McpManager

    manager = McpManager(_reporter(ctx))
    state.manager = manager
    manager.launch(ctx, loaded)
    if not ctx.has_ui and not _nonblocking():
        # print mode: give the servers a moment so the first request has their tools, as
        # Claude Code's -p does; a server still connecting after it joins later
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(manager.wait_started(), _connect_wait())


def _add_servers(ctx: ExtensionContext, data: Any) -> None:
    """Start the servers a host hands this session (see pi_plugin_mcp.sessions)."""
    from pi_plugin_mcp.session_config import add_to_session

    if isinstance(data, dict):
        data["started"] = add_to_session(ctx, data, _reporter(ctx))


def _nonblocking() -> bool:
    value = os.environ.get("MCP_CONNECTION_NONBLOCKING", "").strip().lower()
    return value in ("1", "true", "yes", "on")


def _connect_wait() -> float:
    """Seconds print mode waits for servers: `$MCP_CONNECT_TIMEOUT_MS`, else 5."""
    raw = os.environ.get("MCP_CONNECT_TIMEOUT_MS", "").strip()
    return int(raw) / 1000 if raw.isdigit() and int(raw) > 0 else 5.0


@hookimpl
async def session_shutdown(ctx: ExtensionContext) -> None:
    """Stop every MCP server this session started."""
    if not known(ctx):
        return
    state = session_servers(ctx)
    manager, state.manager = state.manager, None
    if manager is not None:
        await manager.stop()


@hookimpl
async def input(event: InputEvent, ctx: ExtensionContext) -> InputTransform | None:
    """Render `/mcp__server__prompt args` into the prompt's text."""
    manager = current_manager(ctx)
    if manager is None or not event.text.startswith("/mcp__"):
        return None
    await manager.wait_started()  # the prompt may be a server's still connecting
    head, _, rest = event.text[1:].partition(" ")
    for server, prompt in manager.list_prompts():
        if tool_name(server, prompt.name) == head:
            text = await manager.render_prompt(server, prompt.name, _split(rest))
            return InputTransform(text=text, images=event.images)
    return None


@hookimpl
def register_completions(register: Callable[..., None], ctx: ExtensionContext) -> None:
    """Offer `@server:uri` mentions of the servers' resources; their text goes with the prompt."""

    def complete(query: str) -> list[dict[str, str]]:
        return complete_resources(query, ctx)

    async def read(value: str) -> str | None:
        return await read_mentioned_resource(value, ctx)

    register("mcp", complete, read, description="MCP resources")


def complete_resources(query: str, ctx: ExtensionContext | None = None) -> list[dict[str, str]]:
    """Resources whose `server:uri` or name contains the typed text (case-insensitive)."""
    manager = current_manager(ctx)
    if manager is None:
        return []
    wanted = query.lower()
    return [
        {
            "value": f"{ref.server}:{ref.uri}",
            "label": f"{ref.server}:{ref.uri}",
            "description": ref.name or ref.description or "",
        }
        for ref in manager.list_resources()
        if wanted in f"{ref.server}:{ref.uri}".lower() or wanted in (ref.name or "").lower()
    ]


async def read_mentioned_resource(value: str, ctx: ExtensionContext | None = None) -> str | None:
    """The text of `server:uri` when `server` is one of ours (None leaves the mention alone)."""
    manager = current_manager(ctx)
    server, _, uri = value.partition(":")
    if manager is None or not uri:
        return None
    if not any(ref.server == server and ref.uri == uri for ref in manager.list_resources()):
        return None
    return await manager.read_resource(server, uri)


@hookimpl
def register_commands(register: Callable[..., None]) -> None:
    """Register `/mcp`: list servers, restart one, list resources and prompts."""
    register("mcp", mcp_command, description="MCP servers: list, restart NAME, resources, prompts")


async def mcp_command(args: str, ctx: CommandContext) -> None:
    """Handle `/mcp [list | restart NAME | resources | prompts]`."""
    manager = current_manager(ctx)
    words = _split(args)
    if manager is None:
        _say(ctx, "No MCP servers configured (mcpServers in .mcp.json or settings.json).")
        return
    if not words or words[0] == "list":
        from pi_plugin_mcp.manager import format_status

        _say(ctx, format_status(manager.status()))
    elif words[0] == "restart" and len(words) == 2:
        try:
            connection = await manager.restart(words[1])
        except KeyError as error:
            _say(ctx, str(error.args[0]), "error")
            return
        _say(ctx, f"MCP server {connection.name!r}: {connection.state}")
    elif words[0] == "resources":
        refs = manager.list_resources()
        _say(ctx, "\n".join(f"@{r.server}:{r.uri}  {r.name}" for r in refs) or "No resources.")
    elif words[0] == "prompts":
        prompts = manager.list_prompts()
        _say(
            ctx,
            "\n".join(
                f"/{tool_name(s, p.name)} "
                + " ".join(f"<{a.name}>" for a in p.arguments or [])
                + (f"  {p.description}" if p.description else "")
                for s, p in prompts
            )
            or "No prompts.",
        )
    else:
        _say(ctx, "usage: /mcp [list | restart NAME | resources | prompts]", "error")


def _split(text: str) -> list[str]:
    try:
        return shlex.split(text)
    except ValueError:
        return text.split()


def _say(ctx: Any, text: str, level: str = "info") -> None:
    if ctx.has_ui:
        ctx.ui.notify(text, level)
    else:
        print(text, flush=True)
