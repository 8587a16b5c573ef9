"""The approval gate of served sessions: every tool call is decided here, failing closed."""

from __future__ import annotations

from pi_plugin_mcp._pi import ToolCallEvent, ToolCallResult, hookimpl

READ_ONLY_TOOLS = frozenset({"read", "grep", "find", "ls"})


def declined_reason(tool_name: str) -> str:
    """The error the model (or the MCP client) reads when a call is declined."""
    return (
        f"Tool call declined: {tool_name!r} needs approval, and this pi MCP server runs "
        "without --approve (only read, grep, find and ls are allowed)."
    )


def needs_approval(tool_name: str) -> bool:
    """Whether a call of `tool_name` is declined without --approve (all but the read-only four)."""
    return tool_name not in READ_ONLY_TOOLS


class ApprovalGate:
    """A plugin for served sessions: blocks every call that needs approval unless `approve`."""

    __name__ = "mcp-serve-gate"

    def __init__(self, approve: bool) -> None:
        self.approve = approve

    @hookimpl
    def tool_call(self, event: ToolCallEvent) -> ToolCallResult | None:
        """Allow the call, or block it with the reason the model will read (an exception here
        blocks the call too: the dispatcher fails closed)."""
        if self.approve or not needs_approval(event.tool_name):
            return None
        return ToolCallResult(block=True, reason=declined_reason(event.tool_name))
