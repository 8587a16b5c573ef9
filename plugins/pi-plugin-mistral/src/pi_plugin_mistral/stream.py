"""The `mistral-conversations` stream: Mistral's chat completions (`POST /v1/chat/completions`,
server-sent events) on the shared stream skeleton, as pi's Mistral SDK speaks it."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

from pi_core import __version__
from pi_core.providers import (
    AssistantMessageEvent,
    EncodedParts,
    LLMContext,
    Model,
    StreamOptions,
    WireAPI,
    WireRequest,
    describe_error,
    encode_body,
    run_stream,
    with_retry_after,
)
from pi_plugin_mistral.convert import build_payload
from pi_plugin_mistral.endpoint import BASE_URL
from pi_plugin_mistral.events import DONE, MistralEvents

if TYPE_CHECKING:
    import httpx

PATH = "v1/chat/completions"
USER_AGENT = f"pi-harness/{__version__}"
MAX_ERROR_BODY = 4000


def request_headers(model: Model, options: StreamOptions) -> dict[str, str]:
    """JSON in, events out, the key as a bearer token, then the model's and the caller's headers;
    the session id goes as `x-affinity` (Mistral's cache affinity) unless one was given."""
    headers = {
        "content-type": "application/json",
        "accept": "text/event-stream",
        "authorization": f"Bearer {options.api_key or ''}",
        "user-agent": USER_AGENT,
    }
    for source in (model.headers, options.headers):
        for name, value in (source or {}).items():
            headers[name.lower()] = value
    if options.session_id and not headers.get("x-affinity"):
        headers["x-affinity"] = options.session_id
    return headers


def _payload(
    model: Model, context: LLMContext, options: StreamOptions, parts: EncodedParts
) -> dict[str, Any]:
    return build_payload(model, context, options)


def _request(
    model: Model, options: StreamOptions, payload: Any, parts: EncodedParts
) -> WireRequest:
    body = encode_body(payload)
    return WireRequest(model.base_url or BASE_URL, PATH, body, request_headers(model, options))


async def chunks(response: httpx.Response) -> AsyncIterator[dict[str, Any]]:
    """The stream's `data:` chunks as dicts, then `DONE`; the body is read to its end."""
    from pi_core.ai.http import event_json, sse_events

    done = False
    async for _, data in sse_events(response):
        if done:
            continue
        if data.strip() == "[DONE]":
            done = True
            yield DONE
            continue
        event = event_json(data)
        if isinstance(event, dict):
            yield event


def describe(error: BaseException) -> str:
    """pi's words for an API error: `Mistral API error (status): body` (the body cut at 4,000
    characters), with the delay the server asked for; network failures as the skeleton's."""
    from pi_core.ai.http import ProviderHTTPError

    if isinstance(error, ProviderHTTPError):
        text = error.text
        if len(text) > MAX_ERROR_BODY:
            text = f"{text[:MAX_ERROR_BODY]}... [truncated {len(text) - MAX_ERROR_BODY} chars]"
        return with_retry_after(f"Mistral API error ({error.status}): {text}", error.retry_after_ms)
    return describe_error(error)


MISTRAL: WireAPI[dict[str, Any]] = WireAPI(
    payload=_payload,
    request=_request,
    translator=MistralEvents,
    decode=chunks,
    describe_error=describe,
)
"""Mistral's chat completions on the shared stream skeleton."""


def stream_mistral(
    model: Model, context: LLMContext, options: StreamOptions
) -> AsyncIterator[AssistantMessageEvent]:
    """Stream one response. As pi's Mistral client, the request is sent once (no transport
    retries): a failure ends the turn with an error the session retries."""
    return run_stream(MISTRAL, model, context, dataclasses.replace(options, max_retries=0))
