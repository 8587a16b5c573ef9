"""`--fallback-model`: which failures switch models, and the line that says so."""

from __future__ import annotations

import re
from typing import Any

from pi_core.messages import AssistantMessage
from pi_plugin_claude.protocol.messages import new_uuid

_OVERLOADED = re.compile(r"\b529\b|overloaded", re.IGNORECASE)
_UNAVAILABLE = re.compile(
    r"^5\d\d\b|service.?unavailable|server.?error|internal.?error|api_error", re.IGNORECASE
)


def fallback_trigger(message: AssistantMessage | None) -> str | None:
    """Claude's trigger for a failed response: `overloaded`, `server_error`, or None (no switch)."""
    if message is None or message.stop_reason != "error":
        return None
    error = message.error_message or ""
    if _OVERLOADED.search(error):
        return "overloaded"
    if _UNAVAILABLE.search(error):
        return "server_error"
    return None


def model_fallback_line(
    trigger: str, original: str, fallback: str, session_id: str
) -> dict[str, Any]:
    """The `system/model_fallback` line Claude Code sends before retrying on the fallback."""
    return {
        "type": "system",
        "subtype": "model_fallback",
        "trigger": trigger,
        "original_model": original,
        "fallback_model": fallback,
        "content": f"Switched to {fallback} due to high demand for {original}",
        "session_id": session_id,
        "uuid": new_uuid(),
    }
