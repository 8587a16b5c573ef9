"""pi's coding tools (read, write, edit, bash, grep, find, ls) as a pi plugin distribution.

Each tool is its own entry point in the `pi` group (its module's `register_tools` hook), so a
user can block one tool without losing the others. Tool results carry their details as the
models of `pi_core.tools.inputs` (ReadToolDetails, BashToolDetails, …); `write` has none.
"""

from __future__ import annotations

from typing import Any

TOOL_MODULES: dict[str, str] = {
    "read": "pi_plugin_tools.read",
    "write": "pi_plugin_tools.write",
    "edit": "pi_plugin_tools.edit",
    "bash": "pi_plugin_tools.bash",
    "grep": "pi_plugin_tools.grep",
    "find": "pi_plugin_tools.find",
    "ls": "pi_plugin_tools.ls",
}
"""Tool name → the module that registers it (and the name of its entry point)."""


def create_tools(names: list[str] | None = None) -> list[Any]:
    """Return new instances of the named tools (all seven by default), for SDK use."""
    import importlib

    return [
        importlib.import_module(TOOL_MODULES[name]).create_tool()
        for name in (names if names is not None else list(TOOL_MODULES))
    ]


__all__ = ["TOOL_MODULES", "create_tools"]
