"""The `azure-openai-responses` stream: the Responses API on an Azure OpenAI resource.

What differs from OpenAI's endpoint, as pi sends it: the key goes in `api-key` (no bearer), the
URL carries `api-version`, the `model` is the deployment, the body has no `store` and no
cache-retention field, and no session headers are sent. Input items, tools, reasoning and the
stream's events are the shared Responses code.
"""

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
from pi_plugin_openai import azure_config
from pi_plugin_openai.responses_convert import build_input, build_tools, reasoning_fields
from pi_plugin_openai.responses_events import ResponsesEvents
from pi_plugin_openai.transport import data_events, request_headers


def build_payload(
    model: Model, context: LLMContext, options: StreamOptions, parts: EncodedParts | None = None
) -> dict[str, Any]:
    """Return the request body, its keys in pi's order."""
    payload: dict[str, Any] = {
        "model": azure_config.deployment_name(model),
        "input": build_input(model, context, parts),
        "stream": True,
    }
    if options.session_id:
        payload["prompt_cache_key"] = options.session_id
    max_tokens = options.max_tokens or (min(model.max_tokens, 32_000) if model.max_tokens else 0)
    if max_tokens:
        payload["max_output_tokens"] = max_tokens
    if options.temperature is not None:
        payload["temperature"] = options.temperature
    if context.tools:
        payload["tools"] = build_tools(context.tools)
    payload.update(reasoning_fields(model, options))
    return payload


def _request(
    model: Model, options: StreamOptions, payload: dict[str, Any], parts: EncodedParts
) -> WireRequest:
    headers = request_headers(model, options, {})
    key = options.api_key or ""
    if headers.get("authorization") == f"Bearer {key or 'no-key'}":
        del headers["authorization"]  # Azure takes the key in `api-key`, not as a bearer token
    headers.setdefault("api-key", key)
    base = azure_config.base_url(model)
    return WireRequest(base, azure_config.responses_path(), encode_body(payload, parts), headers)


AZURE_RESPONSES: WireAPI[dict[str, Any]] = WireAPI(
    payload=build_payload,
    request=_request,
    translator=ResponsesEvents,
    decode=data_events,
)
"""The Azure Responses API on the shared stream skeleton."""


def stream_azure_responses(
    model: Model, context: LLMContext, options: StreamOptions
) -> AsyncIterator[AssistantMessageEvent]:
    """Stream one Azure OpenAI Responses API response."""
    return run_stream(AZURE_RESPONSES, model, context, options)
