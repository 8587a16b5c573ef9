"""A subagent's calls pass its parent's permission gate: the same hooks, mode, rules and tools."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from pi_core import hookimpl
from pi_core.events import ToolCallEvent, ToolCallResult, ToolResultEvent, ToolResultPatch
from pi_core.tools import Tool

if TYPE_CHECKING:
    from pi_core import ExtensionContext


class ParentGate:
    """The subagent session's one gate: every call goes through the parent's `tool_call` chain.

    The parent's chain holds every plugin's gate (Claude's hooks and rules, a third-party gate),
    each seeing the parent's `ctx`, so an "ask" reaches the parent's host or dialog and the
    parent's current mode and session rules decide. Results pass the parent's `tool_result`
    chain (PostToolUse hooks, a plugin that redacts output) the same way.
    """

    __name__ = "claude-subagent-gate"

    def __init__(self, parent: ExtensionContext) -> None:
        self.parent = parent

    @hookimpl
    async def tool_call(self, event: ToolCallEvent) -> ToolCallResult | None:
        """Ask the parent session's whole `tool_call` chain about this call."""
        return await self.parent.check_tool_call(event)

    @hookimpl
    async def tool_result(self, event: ToolResultEvent) -> ToolResultPatch | None:
        """Let the parent session's `tool_result` chain patch this call's result."""
        return await self.parent.patch_tool_result(event)


def inherited_tools(
    tools: Sequence[Tool[Any]], parent_active: Sequence[str], agent_tools: Sequence[str] | None
) -> list[Tool[Any]]:
    """The subagent's tools: only those the parent may use (`--tools`), and the agent lists."""
    chosen = [t for t in tools if t.name in parent_active]
    if agent_tools is not None:
        chosen = [t for t in chosen if t.name in agent_tools]
    return chosen
