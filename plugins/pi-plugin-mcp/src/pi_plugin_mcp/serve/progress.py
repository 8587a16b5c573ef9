"""What a run tells its caller while it goes: tool calls starting and ending, text milestones."""

from __future__ import annotations

from typing import Any

SNIPPET = 200  # characters of an assistant text shown in a milestone


def milestone(event: Any) -> str | None:
    """The progress message for an agent event, or None for events the caller need not see."""
    kind = getattr(event, "type", None)
    if kind == "tool_execution_start":
        return f"tool {event.tool_name} started"
    if kind == "tool_execution_end":
        return f"tool {event.tool_name} {'failed' if event.is_error else 'finished'}"
    if kind == "message_end" and getattr(event.message, "role", None) == "assistant":
        text = " ".join(
            block.text for block in event.message.content if getattr(block, "type", "") == "text"
        ).strip()
        if text:
            return f"text: {text[:SNIPPET]}{'…' if len(text) > SNIPPET else ''}"
    return None


def assistant_cost(event: Any) -> float:
    """The dollars an assistant message that just ended cost (0 for every other event)."""
    if getattr(event, "type", None) != "message_end":
        return 0.0
    usage = getattr(event.message, "usage", None)
    return float(usage.cost.total) if usage is not None else 0.0
