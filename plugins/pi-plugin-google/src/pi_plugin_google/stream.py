"""The `google-generative-ai` and `google-vertex` streams: one Gemini wire format, two endpoints."""

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
    encode_body,
    run_stream,
)
from pi_plugin_google.convert import build_payload
from pi_plugin_google.endpoint import gemini_request, vertex_request
from pi_plugin_google.errors import describe_error
from pi_plugin_google.events import GeminiEvents


def _gemini(model: Model, options: StreamOptions, payload: Any, parts: EncodedParts) -> WireRequest:
    return gemini_request(model, options, encode_body(payload, parts))


async def _vertex(
    model: Model, options: StreamOptions, payload: Any, parts: EncodedParts
) -> WireRequest:
    return await vertex_request(model, options, encode_body(payload, parts))


GEMINI: WireAPI[Any] = WireAPI(
    payload=build_payload, request=_gemini, translator=GeminiEvents, describe_error=describe_error
)
"""The Gemini API (`generativelanguage.googleapis.com`) on the shared stream skeleton."""

VERTEX: WireAPI[Any] = WireAPI(
    payload=build_payload, request=_vertex, translator=GeminiEvents, describe_error=describe_error
)
"""Vertex AI's Gemini endpoint on the shared stream skeleton."""


def stream_gemini(
    model: Model, context: LLMContext, options: StreamOptions
) -> AsyncIterator[AssistantMessageEvent]:
    """Stream one `google-generative-ai` response."""
    return run_stream(GEMINI, model, context, options)


def stream_vertex(
    model: Model, context: LLMContext, options: StreamOptions
) -> AsyncIterator[AssistantMessageEvent]:
    """Stream one `google-vertex` response."""
    return run_stream(VERTEX, model, context, options)
