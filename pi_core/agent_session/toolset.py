"""The session's tools: every registered tool, and which of them the LLM can call now.

The hooks around each call are in loop_hooks.py.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pi_core.tools.tool import Tool

BUILTIN_TOOLS = ("read", "bash", "edit", "write", "grep", "find", "ls")
DEFAULT_ACTIVE = ("read", "bash", "edit", "write")


@dataclass(frozen=True)
class ToolSelection:
    """Which tools start active, as pi's `--tools`, `--no-tools` and `--no-builtin-tools` say."""

    allow: Sequence[str] | None = None
    no_tools: bool = False
    no_builtin_tools: bool = False

    def initial(self, names: Sequence[str]) -> list[str]:
        """Return the names active at start-up, in registration order."""
        known = set(names)
        if self.allow is not None:
            return [name for name in dict.fromkeys(self.allow) if name in known]
        if self.no_tools:
            return []
        builtin = [] if self.no_builtin_tools else [n for n in DEFAULT_ACTIVE if n in known]
        return builtin + [name for name in names if name not in BUILTIN_TOOLS]

    def activates_late(self, name: str) -> bool:
        """Return whether a tool registered while the session runs starts active."""
        if self.allow is not None:
            return name in self.allow
        return not self.no_tools


class ToolSet:
    """All tools by name (plugins' first, then the SDK's custom tools) and the active subset."""

    def __init__(self, tools: Sequence[Tool[Any]], selection: ToolSelection) -> None:
        self.all: dict[str, Tool[Any]] = {}
        for tool in tools:
            self.all[tool.name] = tool  # a later tool of the same name wins, as in pi
        self.selection = selection
        self.active_names = selection.initial(list(self.all))

    def active(self) -> list[Tool[Any]]:
        """Return the active tools."""
        return [self.all[name] for name in self.active_names if name in self.all]

    def set_active(self, names: Sequence[str]) -> list[str]:
        """Activate these names (unknown ones are ignored); return what is now active."""
        self.active_names = [name for name in dict.fromkeys(names) if name in self.all]
        return list(self.active_names)

    def add(self, tool: Tool[Any]) -> None:
        """Add (or replace) a tool at run time; it is active unless `--tools` / `--no-tools`
        leave it out."""
        self.all[tool.name] = tool
        if tool.name not in self.active_names and self.selection.activates_late(tool.name):
            self.active_names.append(tool.name)

    def remove(self, name: str) -> None:
        """Remove a tool added at run time (unknown names are ignored)."""
        self.all.pop(name, None)
        self.active_names = [n for n in self.active_names if n != name]

    def replace(self, old: Sequence[Tool[Any]], new: Sequence[Tool[Any]]) -> None:
        """Swap reloaded plugins' tools: `old` go, `new` come in active (as pi activates every
        plugin tool on reload) unless `--tools` / `--no-tools` leave them out."""
        gone = {id(tool) for tool in old}
        for name in [name for name, tool in self.all.items() if id(tool) in gone]:
            del self.all[name]
        for tool in new:
            self.add(tool)
        self.active_names = [name for name in self.active_names if name in self.all]

    def describe(self) -> list[dict[str, Any]]:
        """Return each tool's name, description and parameter schema."""
        return [
            {"name": t.name, "description": t.description, "parameters": t.parameters_schema()}
            for t in self.all.values()
        ]
