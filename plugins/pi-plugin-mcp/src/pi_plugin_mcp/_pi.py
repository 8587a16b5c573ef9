"""Every name this plugin takes from pi_core, in one place (a rename is a one-file change)."""

from __future__ import annotations

import os
from pathlib import Path

from pi_core import (
    AbortError,
    AbortSignal,
    CommandContext,
    ExtensionContext,
    ImageContent,
    SettingsManager,
    TextContent,
    Tool,
    ToolArgumentsError,
    ToolCallEvent,
    ToolCallResult,
    ToolResult,
    ToolUpdateCallback,
    hookimpl,
)
from pi_core.events import InputEvent, InputTransform


def agent_dir() -> Path:
    """Return pi's agent directory: `$PI_CODING_AGENT_DIR`, else `~/.pi/agent`."""
    override = os.environ.get("PI_CODING_AGENT_DIR")
    if override:
        return Path(os.path.expanduser(override.strip())).resolve()
    return Path.home() / ".pi" / "agent"


__all__ = [
    "AbortError",
    "AbortSignal",
    "CommandContext",
    "ExtensionContext",
    "ImageContent",
    "InputEvent",
    "InputTransform",
    "SettingsManager",
    "TextContent",
    "Tool",
    "ToolArgumentsError",
    "ToolCallEvent",
    "ToolCallResult",
    "ToolResult",
    "ToolUpdateCallback",
    "agent_dir",
    "hookimpl",
]
