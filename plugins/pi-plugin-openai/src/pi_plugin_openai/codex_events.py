"""The ChatGPT (Codex) backend's stream and errors, on top of the shared Responses translator.

The backend may end a response with `response.done` (or `response.incomplete`), read as
`response.completed` with only the statuses the Responses API knows; the stream is not read past
the end (a connection the backend keeps open does not hold the answer back). An `error` event
reads `Codex error: …`. A refused request reads as pi words it: a usage limit as `You have hit
your ChatGPT usage limit (plus plan). Try again in ~42 min.`, else the server's own message.
"""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

from pi_core.providers import describe_error
from pi_plugin_openai.responses_events import Events, ResponseFailed, ResponsesEvents
from pi_plugin_openai.transport import data_events

if TYPE_CHECKING:
    import httpx

_ENDS = ("response.done", "response.completed", "response.incomplete")
_STATUSES = {"completed", "incomplete", "failed", "cancelled", "queued", "in_progress"}
_LIMIT_CODES = ("usage_limit_reached", "usage_not_included", "rate_limit_exceeded")


class CodexEvents(ResponsesEvents):
    """The Responses translator with the Codex backend's ends and errors."""

    def handle(self, event: dict[str, Any]) -> Events:
        """Convert one streamed event; nothing after the response's end counts."""
        kind = event.get("type")
        if self.finished or not isinstance(kind, str):
            return []
        if kind == "error":
            detail = event.get("message") or event.get("code") or json.dumps(event)
            raise ResponseFailed(f"Codex error: {detail}")
        if kind == "response.failed":
            error = (event.get("response") or {}).get("error") or {}
            raise ResponseFailed(error.get("message") or "Codex response failed")
        if kind in _ENDS:
            response = dict(event.get("response") or {})
            status = response.get("status")
            response["status"] = status if status in _STATUSES else None
            return self.completed(response)
        return super().handle(event)


async def codex_data_events(response: httpx.Response) -> AsyncIterator[dict[str, Any]]:
    """The stream's `data:` events up to the response's end event, then no more."""
    async for event in data_events(response):
        yield event
        if event.get("type") in _ENDS:
            return


def usage_limit_message(status: int, body: Any, now: float | None = None) -> str | None:
    """Return pi's words for a usage-limit refusal (a 429, or a usage/rate-limit error code)."""
    error = body.get("error") if isinstance(body, dict) else None
    if not isinstance(error, dict):
        return None
    code = str(error.get("code") or error.get("type") or "")
    if status != 429 and not any(limit in code.lower() for limit in _LIMIT_CODES):
        return None
    plan = f" ({str(error['plan_type']).lower()} plan)" if error.get("plan_type") else ""
    when = ""
    resets_at = error.get("resets_at")
    if isinstance(resets_at, int | float) and resets_at:
        minutes = max(0, round((resets_at - (time.time() if now is None else now)) / 60))
        when = f" Try again in ~{minutes} min."
    return f"You have hit your ChatGPT usage limit{plan}.{when}"


def describe_codex_error(error: BaseException) -> str:
    """The error text: a refused request as pi words it, anything else as the other APIs."""
    from pi_core.ai.http import ProviderHTTPError

    if not isinstance(error, ProviderHTTPError):
        return describe_error(error)
    friendly = usage_limit_message(error.status, error.body)
    return friendly or error.api_message or error.text
