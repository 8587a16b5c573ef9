"""Claude Code's tool profile: Bash, Read, Write, Edit, MultiEdit, Glob, Grep, LS, TodoWrite,
ExitPlanMode and Task, with Claude's names, input schemas and result texts, each a thin layer
over pi-plugin-tools' implementation (`pi_plugin_tools.api`).

Public surface: `CLAUDE_TOOL_NAMES`, `create_claude_tools(cwd)`.
"""

from __future__ import annotations

from typing import Any

from pi_core.tools import Tool

CLAUDE_TOOL_NAMES = (
    "Task",
    "Bash",
    "Glob",
    "Grep",
    "LS",
    "ExitPlanMode",
    "Read",
    "Edit",
    "MultiEdit",
    "Write",
    "TodoWrite",
)
"""The profile's tools, in the order Claude Code lists them in `system/init`."""


def create_claude_tools(cwd: str | None = None, names: list[str] | None = None) -> list[Tool[Any]]:
    """New instances of the profile's tools (all by default); `cwd` lists its subagents in Task."""
    from pi_plugin_claude.profile.bash import BashTool
    from pi_plugin_claude.profile.files import EditTool, MultiEditTool, ReadTool, WriteTool
    from pi_plugin_claude.profile.plan import ExitPlanModeTool, TodoWriteTool
    from pi_plugin_claude.profile.search import GlobTool, GrepTool, LSTool
    from pi_plugin_claude.profile.task import TaskTool

    def subagent_tools() -> list[Tool[Any]]:
        return create_claude_tools(cwd, [n for n in CLAUDE_TOOL_NAMES if n != "Task"])

    makers: dict[str, Any] = {
        "Task": lambda: TaskTool(subagent_tools, cwd),
        "Bash": BashTool,
        "Glob": GlobTool,
        "Grep": GrepTool,
        "LS": LSTool,
        "ExitPlanMode": ExitPlanModeTool,
        "Read": ReadTool,
        "Edit": EditTool,
        "MultiEdit": MultiEditTool,
        "Write": WriteTool,
        "TodoWrite": TodoWriteTool,
    }
    wanted = names if names is not None else list(CLAUDE_TOOL_NAMES)
    unknown = [name for name in wanted if name not in makers]
    if unknown:
        raise ValueError(f"Unknown Claude tool {unknown[0]!r}: expected one of {CLAUDE_TOOL_NAMES}")
    return [makers[name]() for name in wanted]


__all__ = ["CLAUDE_TOOL_NAMES", "create_claude_tools"]
