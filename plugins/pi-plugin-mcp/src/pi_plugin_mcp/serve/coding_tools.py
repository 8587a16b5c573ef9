"""`--expose-tools`: pi's coding tools served as MCP tools, behind the same approval gate."""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

from pi_plugin_mcp._pi import (
    LoadOptions,
    PluginManager,
    ToolArgumentsError,
    ToolResult,
    make_tool_call_event,
)
from pi_plugin_mcp.serve.gate import ApprovalGate

CODING_TOOLS = ("read", "write", "edit", "bash", "grep", "find", "ls")
NOT_NEEDED = ("mcp",)
"""Plugins the served coding tools do without: no session starts here, so no MCP server would."""


class ToolDeclined(Exception):
    """The gate (or a plugin's `tool_call` hook) blocked the call; the message says why."""


class CodingTools:
    """The built-in coding tools of a folder, loaded as `pi` loads them, run through the
    plugins' `tool_call` hooks (the approval gate first among them)."""

    def __init__(self, cwd: Path, approve: bool) -> None:
        self._manager = PluginManager(cwd.resolve())
        self._manager.load(LoadOptions(blocked=list(NOT_NEEDED)))
        self._manager.register_inline(ApprovalGate(approve), ApprovalGate.__name__)
        registered = self._manager.registry.tools
        self.tools = {name: registered[name].tool for name in CODING_TOOLS if name in registered}

    def schemas(self) -> list[tuple[str, str, dict[str, Any]]]:
        """Each tool's name, description and JSON schema, as the model sees them."""
        return [(t.name, t.description, t.parameters_schema()) for t in self.tools.values()]

    async def call(self, name: str, arguments: dict[str, Any]) -> ToolResult:
        """Validate, ask the `tool_call` hooks, and run the tool (ToolDeclined when blocked)."""
        tool = self.tools[name]
        params = tool.validate_arguments(arguments)  # ToolArgumentsError names the bad field
        call_id = f"mcp_{uuid.uuid4().hex[:12]}"
        event = make_tool_call_event(name, call_id, params)
        verdict = await self._manager.dispatcher.tool_call(event)
        if verdict is not None and verdict.block:
            raise ToolDeclined(verdict.reason or f"Tool call {name!r} was blocked")
        return await tool.execute(call_id, params, None, None, self._manager.ctx)


__all__ = ["CODING_TOOLS", "CodingTools", "ToolArgumentsError", "ToolDeclined"]
