"""One Messages API request over httpx: headers, body, and the answer as a list of events.

httpx is imported on the first request, not at start-up. A server that ignores `stream: true`
and sends one Message as JSON is understood: the message becomes the events a stream would have
sent.
"""

from __future__ import annotations

import json
import os
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

from pi_core import __version__
from pi_core.providers import EncodedParts, Model, StreamOptions, encode_body
from pi_plugin_anthropic.convert import ADAPTIVE_MODELS

if TYPE_CHECKING:
    import httpx

DEFAULT_BASE_URL = "https://api.anthropic.com"
API_VERSION = "2023-06-01"
USER_AGENT = f"pi-harness/{__version__}"
INTERLEAVED_THINKING_BETA = "interleaved-thinking-2025-05-14"
FINE_GRAINED_TOOL_STREAMING_BETA = "fine-grained-tool-streaming-2025-05-14"
OAUTH_BETAS = ("claude-code-20250219", "oauth-2025-04-20")
OAUTH_IDENTITY = {"user-agent": "claude-cli/2.1.75", "x-app": "cli"}
"""What pi 0.73.1 sends with a subscription token: Claude Code's client identity."""


class StreamErrorEvent(Exception):
    """The server sent an `error` event inside the stream; the message is its data."""


def base_url(model: Model) -> str:
    """Return the model's base URL, else `$ANTHROPIC_BASE_URL`, else Anthropic's."""
    return model.base_url or os.environ.get("ANTHROPIC_BASE_URL") or DEFAULT_BASE_URL


def request_headers(model: Model, options: StreamOptions, has_tools: bool) -> dict[str, str]:
    """Return the headers pi sends: the key (`x-api-key`, or a bearer OAuth token), the API version,
    its beta features, then the model's and the caller's headers (overriding, whatever the case)."""
    key = options.api_key or ""
    betas: list[str] = []
    eager_tools = (model.compat or {}).get("supportsEagerToolInputStreaming", True)
    if has_tools and not eager_tools:
        betas.append(FINE_GRAINED_TOOL_STREAMING_BETA)
    if not any(marker in model.id for marker in ADAPTIVE_MODELS):
        betas.append(INTERLEAVED_THINKING_BETA)  # built into the adaptive-thinking models
    headers = {
        "accept": "application/json",
        "content-type": "application/json",
        "user-agent": USER_AGENT,
        "anthropic-version": API_VERSION,
        "anthropic-dangerous-direct-browser-access": "true",  # pi's client sends it everywhere
    }
    if "sk-ant-oat" in key:
        headers["authorization"] = f"Bearer {key}"
        headers.update(OAUTH_IDENTITY)
        betas[:0] = OAUTH_BETAS
    else:
        headers["x-api-key"] = key or "no-key"
    if betas:
        headers["anthropic-beta"] = ",".join(betas)
    for source in (model.headers, options.headers):
        for name, value in (source or {}).items():
            headers[name.lower()] = value
    return headers


def encode_payload(payload: dict[str, Any], parts: EncodedParts | None = None) -> bytes:
    """Serialise the body with its top-level keys sorted, the order the `anthropic` SDK sent them
    in, so requests stay byte-for-byte what they were; the blocks whose JSON text `parts` holds
    are spliced in, not encoded again."""
    return encode_body(dict(sorted(payload.items())), parts)


async def stream_events(response: httpx.Response) -> AsyncIterator[dict[str, Any]]:
    """The stream's events as dicts (pings dropped); an `error` event raises `StreamErrorEvent`."""
    from pi_core.ai.http import event_json, sse_events

    async for name, data in sse_events(response):
        if name == "error":
            raise StreamErrorEvent(data)
        if name == "ping":
            continue
        yield event_json(data)


def message_as_events(message: dict[str, Any]) -> list[dict[str, Any]]:
    """Return the events a stream would have sent for a complete Message body."""
    if message.get("type") == "error" or "content" not in message:
        raise StreamErrorEvent(json.dumps(message))
    events: list[dict[str, Any]] = [
        {"type": "message_start", "message": {**message, "content": []}}
    ]
    for index, block in enumerate(message["content"]):
        kind = block.get("type")
        delta: dict[str, Any] | None = None
        start = block
        if kind == "text":
            start, delta = {**block, "text": ""}, {"type": "text_delta", "text": block["text"]}
        elif kind == "thinking":
            start = {**block, "thinking": "", "signature": ""}
            delta = {"type": "thinking_delta", "thinking": block.get("thinking") or ""}
        elif kind == "tool_use":
            start = {**block, "input": {}}
            arguments = json.dumps(block.get("input") or {})
            delta = {"type": "input_json_delta", "partial_json": arguments}
        events.append({"type": "content_block_start", "index": index, "content_block": start})
        if delta is not None and any(delta.get(k) for k in ("text", "thinking", "partial_json")):
            events.append({"type": "content_block_delta", "index": index, "delta": delta})
        if kind == "thinking" and block.get("signature"):
            signature = {"type": "signature_delta", "signature": block["signature"]}
            events.append({"type": "content_block_delta", "index": index, "delta": signature})
        events.append({"type": "content_block_stop", "index": index})
    stop = {"stop_reason": message.get("stop_reason"), "stop_sequence": None}
    usage = {"output_tokens": (message.get("usage") or {}).get("output_tokens")}
    events += [{"type": "message_delta", "delta": stop, "usage": usage}, {"type": "message_stop"}]
    return events
