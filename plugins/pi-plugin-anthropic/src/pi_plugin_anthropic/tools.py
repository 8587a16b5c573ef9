"""A tool as pi 0.73.1 offers it on the Messages API."""

from __future__ import annotations

from typing import Any

from pi_core.providers import ToolSpec


def anthropic_tool(
    tool: ToolSpec, eager: bool, mark: dict[str, Any] | None, name: str | None = None
) -> dict[str, Any]:
    """The tool with its schema cut to `type`, `properties` and `required` (nothing else of it,
    `additionalProperties` included, is sent), eager input streaming unless the model's compat
    turns it off, and the cache mark (pi puts it on the last tool); `name` replaces the tool's
    (Claude Code's spelling, with a subscription token)."""
    schema = tool.parameters
    result: dict[str, Any] = {"name": name or tool.name, "description": tool.description}
    if eager:
        result["eager_input_streaming"] = True
    result["input_schema"] = {
        "type": "object",
        "properties": schema.get("properties") or {},
        "required": schema.get("required") or [],
    }
    if mark is not None:
        result["cache_control"] = mark
    return result
