"""`pi acp`: serve pi to an editor over the Agent Client Protocol on stdio (`pi.commands`)."""

from __future__ import annotations

import asyncio

import click


@click.command("acp")
def acp_command() -> None:
    """Run pi as an ACP agent on stdin/stdout (for Zed, JetBrains, Neovim …)."""
    from acp import run_agent

    from pi_plugin_acp.agent import PiAcpAgent

    # session/resume and session/close are still "unstable" in the SDK; pi serves them
    asyncio.run(run_agent(PiAcpAgent(), use_unstable_protocol=True))
