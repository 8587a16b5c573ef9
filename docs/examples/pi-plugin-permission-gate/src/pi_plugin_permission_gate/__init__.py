"""Ask before pi runs a dangerous bash command; `/gate` reports what was blocked."""

from __future__ import annotations

import re
from typing import Any

from pi_core import CommandContext, ExtensionContext, ToolCallResult, hookimpl
from pi_core.events import BashToolCallEvent

DANGEROUS = re.compile(r"\brm\s+-\w*[rf]\w*\b|\bsudo\b|\bchmod\s+777\b")
blocked_commands: list[str] = []


@hookimpl
async def tool_call(event: Any, ctx: ExtensionContext) -> ToolCallResult | None:
    """Block a dangerous bash command unless the user allows it."""
    if not isinstance(event, BashToolCallEvent) or not DANGEROUS.search(event.input.command):
        return None
    if ctx.has_ui:
        choice = await ctx.ui.select(
            f"Allow this command?\n\n  {event.input.command}", ["Allow", "Block"]
        )
        if choice == "Allow":
            return None
    blocked_commands.append(event.input.command)
    return ToolCallResult(block=True, reason="Blocked by the permission gate")


async def show_blocked(args: str, ctx: CommandContext) -> None:
    """The /gate command: tell the user what was blocked so far."""
    summary = "\n".join(blocked_commands) or "nothing blocked yet"
    ctx.ui.notify(f"Permission gate:\n{summary}", "info")


@hookimpl
def register_commands(register: Any) -> None:
    """Add /gate."""
    register("gate", show_blocked, description="Show the commands the permission gate blocked")
