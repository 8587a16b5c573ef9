"""`pi acp`: serve pi to an editor over the Agent Client Protocol on stdio (`pi.commands`)."""

from __future__ import annotations

import asyncio

import click


@click.command("acp")
@click.option("--login", is_flag=True, help="Run pi's /login in the REPL, then exit.")
def acp_command(login: bool) -> None:
    """Run pi as an ACP agent on stdin/stdout (for Zed, JetBrains, Neovim …)."""
    if login:
        from pi_core import run_login

        raise SystemExit(asyncio.run(run_login()))
    from pi_plugin_acp.streams import reserve_stdout

    out_fd = reserve_stdout()
    asyncio.run(_serve(out_fd))


async def _serve(out_fd: int) -> None:
    from acp import run_agent

    from pi_plugin_acp.agent import PiAcpAgent
    from pi_plugin_acp.streams import protocol_streams

    writer, reader = await protocol_streams(out_fd)
    agent = PiAcpAgent()
    try:
        # session/resume and session/close are still "unstable" in the SDK; pi serves them
        await run_agent(agent, writer, reader, use_unstable_protocol=True)
    finally:
        await agent.close_all()  # plugins hear session_shutdown; MCP servers stop
