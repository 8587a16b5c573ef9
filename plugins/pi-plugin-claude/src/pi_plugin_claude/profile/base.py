"""What every Claude tool shares: a pi tool underneath, and Claude's description."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, TypeVar

from pi_plugin_tools.api import create_tools
from pydantic import BaseModel

from pi_core.tools import Tool, ToolResult

if TYPE_CHECKING:
    from pi_core import ExtensionContext
    from pi_core.abort import AbortSignal

ParamsT = TypeVar("ParamsT", bound=BaseModel)


class ClaudeTool(Tool[ParamsT]):
    """A Claude Code tool; `pi_tool(name)` gives the pi-plugin-tools tool it delegates to."""

    _pi_tools: dict[str, Tool[Any]] | None = None

    def pi_tool(self, name: str) -> Tool[Any]:
        """pi's own tool `name` (read, write, edit, bash, grep, find, ls), made once."""
        if self._pi_tools is None:
            self._pi_tools = {tool.name: tool for tool in create_tools()}
        return self._pi_tools[name]

    async def run_pi(
        self,
        name: str,
        arguments: dict[str, Any],
        call_id: str,
        signal: AbortSignal | None,
        ctx: ExtensionContext,
    ) -> ToolResult:
        """Run pi's tool `name` with pi's arguments; its exceptions propagate as errors."""
        tool = self.pi_tool(name)
        params = tool.validate_arguments(arguments)
        return await tool.execute(call_id, params, signal, None, ctx)

    def file_operations(self, params: ParamsT) -> dict[str, list[str]]:
        """Read tools read their file, edit tools edit it (compaction lists them)."""
        path = getattr(params, "file_path", None)
        if not isinstance(path, str):
            return {}
        kind = "read" if self.name == "Read" else "written" if self.name == "Write" else "edited"
        return {kind: [path]}


def absolute(path: str, cwd: str) -> str:
    """The path made absolute against the session cwd (`~` expanded)."""
    return os.path.normpath(os.path.join(cwd, os.path.expanduser(path)))


def relative_if_inside(path: str, cwd: str) -> str:
    """Claude shows paths under the cwd relative to it, others absolute."""
    relative = os.path.relpath(path, cwd)
    return path if relative.startswith("..") else relative
