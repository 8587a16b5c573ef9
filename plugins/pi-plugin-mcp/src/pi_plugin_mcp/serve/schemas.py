"""The input schemas of pi_run and pi_reply, and reading their arguments."""

from __future__ import annotations

from typing import Any

from pi_plugin_mcp.serve.turn import Limits

_LIMITS: dict[str, Any] = {
    "max_cost": {"type": "number", "minimum": 0,
                 "description": "Abort when this call's model cost passes this many dollars."},
    "timeout_s": {"type": "number", "exclusiveMinimum": 0,
                  "description": "Abort when this call has run this many seconds."},
}  # fmt: skip

PI_RUN: dict[str, Any] = {
    "type": "object",
    "properties": {
        "prompt": {"type": "string", "description": "The task for the agent."},
        "cwd": {"type": "string", "description": "The project folder the agent works in."},
        "model": {"type": "string",
                  "description": "provider/model[:thinking] (default: pi's settings)."},
        "tools": {"type": "array", "items": {"type": "string"},
                  "description": "Allow-list of tool names, as pi's --tools."},
        **_LIMITS,
    },
    "required": ["prompt", "cwd"],
    "additionalProperties": False,
}  # fmt: skip

PI_REPLY: dict[str, Any] = {
    "type": "object",
    "properties": {
        "session_id": {"type": "string", "description": "The sessionId pi_run returned."},
        "prompt": {"type": "string", "description": "The next message to the agent."},
        **_LIMITS,
    },
    "required": ["session_id", "prompt"],
    "additionalProperties": False,
}

RUN_DESCRIPTION = (
    "Run the pi coding agent on a task in a folder, as a new saved pi session. Returns the "
    "agent's final text, the sessionId (for pi_reply), token usage, cost, a status "
    "(completed, timeout, budget exceeded) and the folder's git diff as patch."
)
REPLY_DESCRIPTION = "Continue a pi session started by pi_run with another prompt."


def limits_of(arguments: dict[str, Any]) -> Limits:
    """The budget and time limit given in a call's arguments."""
    max_cost, timeout_s = arguments.get("max_cost"), arguments.get("timeout_s")
    return Limits(
        max_cost=float(max_cost) if max_cost is not None else None,
        timeout_s=float(timeout_s) if timeout_s is not None else None,
    )
