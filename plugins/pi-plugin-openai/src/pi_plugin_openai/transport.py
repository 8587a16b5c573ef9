"""One request to an OpenAI-style API: headers, body, and the stream's `data:` events.

Some OpenAI-compatible servers ignore `stream: true` and answer with one JSON body; `run_stream`
hands that to the translator (`json_body` makes it a dict). httpx is imported on the first
request, not at start-up.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

from pi_core import __version__
from pi_core.providers import EncodedParts, Model, StreamOptions, WireRequest, encode_body

if TYPE_CHECKING:
    import httpx

DEFAULT_BASE_URL = "https://api.openai.com/v1"
USER_AGENT = f"pi-harness/{__version__}"
_FIRST_KEYS = {
    "chat/completions": ("model", "stream", "messages"),
    "responses": ("model", "stream"),
}


class StreamErrorEvent(Exception):
    """The server reported an error inside the stream (a `data: {"error": …}` event)."""

    def __init__(self, message: str, error: Any = None) -> None:
        super().__init__(message)
        self.error = error
        """The event's `error` object."""


def base_url(model: Model) -> str:
    """Return the model's base URL, else `$OPENAI_BASE_URL`, else OpenAI's."""
    return model.base_url or os.environ.get("OPENAI_BASE_URL") or DEFAULT_BASE_URL


def request_headers(model: Model, options: StreamOptions, extra: dict[str, str]) -> dict[str, str]:
    """Return the request's headers: auth and JSON, then the model's, `extra`, the caller's.

    Later sources override earlier ones whatever the case of the name.
    """
    headers = {
        "accept": "application/json",
        "content-type": "application/json",
        "user-agent": USER_AGENT,
        "authorization": f"Bearer {options.api_key or 'no-key'}",
    }
    for name, env in (
        ("openai-organization", "OPENAI_ORG_ID"),
        ("openai-project", "OPENAI_PROJECT_ID"),
    ):
        if os.environ.get(env):
            headers[name] = os.environ[env]
    for source in (model.headers, extra, options.headers):
        for name, value in (source or {}).items():
            headers[name.lower()] = value
    return headers


def encode_payload(path: str, payload: dict[str, Any], parts: EncodedParts | None = None) -> bytes:
    """Serialise the body with the top-level keys in the order the `openai` SDK sent them (its
    leading keys, then the rest sorted), so requests stay byte-for-byte what they were; the
    messages whose JSON text `parts` holds are spliced in, not encoded again."""
    first = [key for key in _FIRST_KEYS.get(path, ()) if key in payload]
    ordered = {key: payload[key] for key in first}
    ordered.update(sorted((k, v) for k, v in payload.items() if k not in ordered))
    return encode_body(ordered, parts)


def wire_request(
    model: Model,
    options: StreamOptions,
    path: str,
    payload: dict[str, Any],
    parts: EncodedParts,
    extra_headers: dict[str, str],
) -> WireRequest:
    """Return the POST of `payload` to `path` under the model's base URL."""
    body = encode_payload(path, payload, parts)
    return WireRequest(base_url(model), path, body, request_headers(model, options, extra_headers))


def upstream_detail(error: BaseException) -> str | None:
    """The upstream provider's own words OpenRouter adds to an error (`error.metadata.raw`),
    from an HTTP error's body or an error event in the stream."""
    from pi_core.ai.http import ProviderHTTPError

    inner: Any = None
    if isinstance(error, ProviderHTTPError) and isinstance(error.body, dict):
        inner = error.body.get("error")
    elif isinstance(error, StreamErrorEvent):
        inner = error.error
    metadata = inner.get("metadata") if isinstance(inner, dict) else None
    raw = metadata.get("raw") if isinstance(metadata, dict) else None
    return raw if isinstance(raw, str) and raw else None


def json_body(data: Any) -> dict[str, Any]:
    """Return the JSON body a server sent instead of a stream, as a dict (else as an error)."""
    return data if isinstance(data, dict) else {"error": {"message": str(data)}}


DONE: dict[str, Any] = {"type": "[DONE]"}
"""What `data_events` yields for the stream's `[DONE]` (a kind no translator knows)."""


async def data_events(response: httpx.Response) -> AsyncIterator[dict[str, Any]]:
    """The stream's `data:` payloads as dicts, then `DONE` for `[DONE]`.

    After `[DONE]` the rest of the body is read and ignored, as the `openai` SDK does: a body read
    to its end hands its keep-alive connection back to the pool. An error event (`{"error": …}`)
    raises `StreamErrorEvent`.
    """
    from pi_core.ai.http import event_json, sse_events

    done = False
    async for _, data in sse_events(response):
        if done:
            continue
        if data.startswith("[DONE]"):
            done = True
            yield DONE
            continue
        event = event_json(data)
        if isinstance(event, dict) and event.get("error"):
            error = event["error"]
            message = error.get("message") if isinstance(error, dict) else None
            raise StreamErrorEvent(message or "An error occurred during streaming", error)
        yield event
