"""Tool names as Claude Code spells them, for requests made with a Claude Pro/Max token.

pi 0.73.1 sends a tool whose name matches one of Claude Code's (ignoring case) under Claude
Code's spelling (`read` → `Read`), in the tool list and in the history's tool calls; any other
tool (a plugin's) keeps its name. A tool call in the answer gets back the name of the request's
tool it matches (ignoring case), else keeps the name it came with.
"""

from __future__ import annotations

from collections.abc import Iterable

CLAUDE_CODE_TOOLS = (
    "Read", "Write", "Edit", "Bash", "Grep", "Glob", "AskUserQuestion", "EnterPlanMode",
    "ExitPlanMode", "KillShell", "NotebookEdit", "Skill", "Task", "TaskOutput", "TodoWrite",
    "WebFetch", "WebSearch",
)  # fmt: skip
"""Claude Code 2.x's tool names, the list pi 0.73.1 maps to."""

_BY_LOWER = {name.lower(): name for name in CLAUDE_CODE_TOOLS}


def to_claude_code(name: str) -> str:
    """Return Claude Code's spelling of `name`, or `name` when Claude Code has no such tool."""
    return _BY_LOWER.get(name.lower(), name)


def from_claude_code(name: str, tool_names: Iterable[str]) -> str:
    """Return the first of `tool_names` equal to `name` ignoring case, else `name`."""
    lower = name.lower()
    return next((tool for tool in tool_names if tool.lower() == lower), name)
