"""pi's ACP extension methods (until ACP has its own): `_pi/steer` and `_pi/follow_up`, each
`{"sessionId": ..., "text": ...}`, queue a message into the turn that is running."""

from __future__ import annotations

from typing import Any

from acp import RequestError

from pi_core import AgentSession

METHODS = ("pi/steer", "pi/follow_up")


def message_text(params: dict[str, Any]) -> str:
    """The `text` of an extension call; invalid params unless it is a non-empty string."""
    text = params.get("text")
    if not isinstance(text, str) or not text:
        raise RequestError.invalid_params({"message": "text must be a non-empty string"})
    return text


async def call(session: AgentSession, method: str, params: dict[str, Any]) -> dict[str, Any]:
    """Queue `_pi/steer` (delivered after the current tool calls) or `_pi/follow_up` (after the
    turn ends) into the running turn; refused when no turn runs (use `session/prompt`)."""
    text = message_text(params)
    if not session.is_streaming:
        raise RequestError.invalid_params({"message": "no turn is running; use session/prompt"})
    try:
        if method == "pi/steer":
            await session.steer(text)
        else:
            await session.follow_up(text)
    except ValueError as error:  # a plugin command, which cannot be queued
        raise RequestError.invalid_params({"message": str(error)}) from error
    return {"queued": True}
