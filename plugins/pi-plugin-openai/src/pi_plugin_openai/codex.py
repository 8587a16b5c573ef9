"""The `openai-codex-responses` stream: the Responses API on ChatGPT's Codex backend, paid for by a
ChatGPT subscription (provider `openai-codex`, key: the login's access token).

What differs from OpenAI's endpoint, as pi sends it: the URL (`…/codex/responses`), the identity
headers (`chatgpt-account-id` from the token, `originator: pi`, `OpenAI-Beta`), the system prompt
as `instructions`, a body that always asks for encrypted reasoning and never for an output limit,
tools with `strict: null`, three transport retries, and the backend's own stream ends and errors
(`codex_events`). pi may also speak this API over a WebSocket; this plugin uses SSE only.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace
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
from pi_plugin_openai.codex_auth import account_id, user_agent
from pi_plugin_openai.codex_events import CodexEvents, codex_data_events, describe_codex_error
from pi_plugin_openai.responses_convert import build_input, build_tools, reasoning_effort

DEFAULT_BASE_URL = "https://chatgpt.com/backend-api"
DEFAULT_INSTRUCTIONS = "You are a helpful assistant."
MAX_RETRIES = 3


def codex_url(base_url: str | None) -> str:
    """Return the Responses endpoint under the base URL (`…/codex/responses`)."""
    url = (base_url if base_url and base_url.strip() else DEFAULT_BASE_URL).rstrip("/")
    if url.endswith("/codex/responses"):
        return url
    return f"{url}/responses" if url.endswith("/codex") else f"{url}/codex/responses"


def build_payload(
    model: Model, context: LLMContext, options: StreamOptions, parts: EncodedParts | None = None
) -> dict[str, Any]:
    """Return the request body, its keys in pi's order."""
    payload: dict[str, Any] = {
        "model": model.id,
        "store": False,
        "stream": True,
        "instructions": context.system_prompt or DEFAULT_INSTRUCTIONS,
        "input": build_input(model, context, parts, system=False),
        "text": {"verbosity": "low"},
        "include": ["reasoning.encrypted_content"],
    }
    if options.session_id:
        payload["prompt_cache_key"] = options.session_id
    payload.update(tool_choice="auto", parallel_tool_calls=True)
    if options.temperature is not None:
        payload["temperature"] = options.temperature
    if context.tools:
        payload["tools"] = build_tools(context.tools, strict=None)
    effort = reasoning_effort(model, options.reasoning)
    if effort:
        payload["reasoning"] = {"effort": effort, "summary": "auto"}
    return payload


def codex_headers(model: Model, options: StreamOptions) -> dict[str, str]:
    """Return the headers: the model's and the caller's, then the backend's identity headers."""
    token = options.api_key or ""
    headers: dict[str, str] = {}
    for source in (model.headers, options.headers):
        for name, value in (source or {}).items():
            headers[name.lower()] = value
    headers.update({
        "authorization": f"Bearer {token}",
        "chatgpt-account-id": account_id(token),
        "originator": "pi",
        "user-agent": user_agent(),
        "openai-beta": "responses=experimental",
        "accept": "text/event-stream",
        "content-type": "application/json",
    })  # fmt: skip
    if options.session_id:
        headers["session_id"] = options.session_id
        headers["x-client-request-id"] = options.session_id
    return headers


def _request(
    model: Model, options: StreamOptions, payload: dict[str, Any], parts: EncodedParts
) -> WireRequest:
    url = codex_url(model.base_url)
    base, _, path = url.rpartition("/codex/")
    body = encode_body(payload, parts)
    return WireRequest(base, f"codex/{path}", body, codex_headers(model, options))


CODEX_RESPONSES: WireAPI[dict[str, Any]] = WireAPI(
    payload=build_payload,
    request=_request,
    translator=CodexEvents,
    decode=codex_data_events,
    describe_error=describe_codex_error,
)
"""The Codex backend's Responses API on the shared stream skeleton."""


def stream_codex_responses(
    model: Model, context: LLMContext, options: StreamOptions
) -> AsyncIterator[AssistantMessageEvent]:
    """Stream one response from the Codex backend (three transport retries unless set)."""
    if options.max_retries is None:
        options = replace(options, max_retries=MAX_RETRIES)
    return run_stream(CODEX_RESPONSES, model, context, options)
