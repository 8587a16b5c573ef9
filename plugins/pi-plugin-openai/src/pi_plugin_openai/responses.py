"""The `openai-responses` stream: the Responses API over httpx, as pi's events."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from pi_core.providers import (
    AssistantMessageEvent,
    EncodedParts,
    LLMContext,
    Model,
    StreamOptions,
    WireAPI,
    WireRequest,
    run_stream,
)
from pi_plugin_openai.responses_convert import build_payload, session_headers
from pi_plugin_openai.responses_events import ResponsesEvents
from pi_plugin_openai.transport import data_events, wire_request


def _request(
    model: Model, options: StreamOptions, payload: dict[str, Any], parts: EncodedParts
) -> WireRequest:
    headers = session_headers(model, options)
    return wire_request(model, options, "responses", payload, parts, headers)


RESPONSES: WireAPI[dict[str, Any]] = WireAPI(
    payload=build_payload,
    request=_request,
    translator=ResponsesEvents,
    decode=data_events,
)
"""The Responses API on the shared stream skeleton."""


def stream_responses(
    model: Model, context: LLMContext, options: StreamOptions
) -> AsyncIterator[AssistantMessageEvent]:
    """Stream one Responses API response."""
    return run_stream(RESPONSES, model, context, options)
