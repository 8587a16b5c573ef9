"""Every name this plugin takes from pi_core, in one place (a rename is a one-file change)."""

from __future__ import annotations

import os
from pathlib import Path

from pi_core import (
    AbortError,
    AbortSignal,
    AgentSession,
    CommandContext,
    ExtensionContext,
    ImageContent,
    LoadOptions,
    PluginManager,
    SettingsManager,
    TextContent,
    Tool,
    ToolArgumentsError,
    ToolCallEvent,
    ToolCallResult,
    ToolResult,
    ToolUpdateCallback,
    create_agent_session,
    hookimpl,
    make_tool_call_event,
)
from pi_core.events import InputEvent, InputTransform


def pi_version() -> str:
    """Return the version of pi (the pi-harness distribution)."""
    from pi_core import __version__

    return __version__


def agent_dir() -> Path:
    """Return pi's agent directory: `$PI_CODING_AGENT_DIR`, else `~/.pi/agent`."""
    override = os.environ.get("PI_CODING_AGENT_DIR")
    if override:
        return Path(os.path.expanduser(override.strip())).resolve()
    return Path.home() / ".pi" / "agent"


__all__ = [
    "AbortError",
    "AbortSignal",
    "AgentSession",
    "CommandContext",
    "ExtensionContext",
    "ImageContent",
    "InputEvent",
    "InputTransform",
    "LoadOptions",
    "PluginManager",
    "SettingsManager",
    "TextContent",
    "Tool",
    "ToolArgumentsError",
    "ToolCallEvent",
    "ToolCallResult",
    "ToolResult",
    "ToolUpdateCallback",
    "agent_dir",
    "create_agent_session",
    "hookimpl",
    "make_tool_call_event",
    "pi_version",
]
