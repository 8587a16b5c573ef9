"""pi's ACP extension methods (until ACP has its own): `_pi/steer` and `_pi/follow_up`, each
`{"sessionId": ..., "text": ...}`, queue a message into the turn that is running."""

from __future__ import annotations

from typing import Any

from acp import RequestError

from pi_core.agent_session.session import AgentSession

METHODS = ("pi/steer", "pi/follow_up")


def message_text(params: dict[str, Any]) -> str:
    """The `text` of an extension call; invalid params unless it is a non-empty string."""
    text = params.get("text")
    if not isinstance(text, str) or not text:
        raise RequestError.invalid_params({"message": "text must be a non-empty string"})
    return text


async def call(session: AgentSession, method: str, params: dict[str, Any]) -> dict[str, Any]:
    """Run `_pi/steer` (delivered after the current tool calls) or `_pi/follow_up` (after the
    turn ends); `{"queued": true}` when the message waits, false when it started a turn."""
    text = message_text(params)
    queued = session.is_streaming
    if method == "pi/steer":
        await session.steer(text)
    else:
        await session.follow_up(text)
    return {"queued": queued}
