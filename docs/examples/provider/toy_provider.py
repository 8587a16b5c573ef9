"""A provider plugin for a made-up wire API, on the shared stream skeleton `run_stream`.

The API takes `{"model", "system", "messages", "stream"}` at POST /generate and streams
server-sent events: `{"type": "text", "text": …}` pieces, then
`{"type": "end", "reason": "stop" | "length", "usage": {"in": N, "out": N}}`.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable
from typing import Any

from pi_core import hookimpl
from pi_core.messages import StopReason, TextContent
from pi_core.providers import (
    AssistantMessageBuilder,
    AssistantMessageEvent,
    EncodedParts,
    LLMContext,
    LLMMessage,
    Model,
    ProviderConfig,
    ProviderModelConfig,
    StreamOptions,
    WireAPI,
    WireRequest,
    WireTranslator,
    run_stream,
)


def _text(message: LLMMessage) -> str:
    if isinstance(message.content, str):
        return message.content
    return "".join(b.text for b in message.content if isinstance(b, TextContent))


def build_payload(
    model: Model, context: LLMContext, options: StreamOptions, parts: EncodedParts
) -> dict[str, Any]:
    """The request's JSON (the `before_provider_request` hook may still replace it)."""
    messages = [{"role": m.role, "text": _text(m)} for m in context.messages]
    return {"model": model.id, "system": context.system_prompt, "messages": messages}


def build_request(
    model: Model, options: StreamOptions, payload: dict[str, Any], parts: EncodedParts
) -> WireRequest:
    """Where the payload goes, as bytes, with which headers."""
    body = json.dumps({**payload, "stream": True}).encode()
    headers = {"content-type": "application/json", "authorization": f"Bearer {options.api_key}"}
    return WireRequest(model.base_url or "http://127.0.0.1:8080", "generate", body, headers)


class ToyEvents(WireTranslator[dict[str, Any]]):
    """The API's events as pi's: one text block, closed when the stream ends."""

    def __init__(self, builder: AssistantMessageBuilder) -> None:
        super().__init__(builder)
        self.text: int | None = None
        self.stop: StopReason | None = None

    def handle(self, event: dict[str, Any]) -> list[AssistantMessageEvent]:
        """Translate one event; unknown kinds give nothing."""
        events: list[AssistantMessageEvent] = []
        if event.get("type") == "text":
            if self.text is None:
                self.text, started = self.builder.text_start()
                events.append(started)
            events.append(self.builder.text_delta(self.text, event["text"]))
        elif event.get("type") == "end":
            usage = event.get("usage") or {}
            self.builder.set_usage(input=usage.get("in"), output=usage.get("out"))
            self.stop = "length" if event.get("reason") == "length" else "stop"
        return events

    def close(self) -> list[AssistantMessageEvent]:
        """Close the text block, if one is open."""
        if self.text is None:
            return []
        index, self.text = self.text, None
        return [self.builder.text_end(index)]

    def finish(self) -> StopReason | None:
        """How the response stopped; without an `end` event it was cut short."""
        if self.stop is None:
            raise ConnectionError("Connection lost: the stream ended without its end event")
        return self.stop


TOY = WireAPI(payload=build_payload, request=build_request, translator=ToyEvents)
"""The toy API: SSE with JSON data is the default `decode`; pass another for other framings."""


def stream_toy(
    model: Model, context: LLMContext, options: StreamOptions
) -> AsyncIterator[AssistantMessageEvent]:
    """Stream one response of the toy API."""
    return run_stream(TOY, model, context, options)


@hookimpl
def register_providers(register: Callable[..., None]) -> None:
    """Register provider `toy` and its model."""
    register(
        "toy",
        ProviderConfig(
            api="toy-generate",
            base_url="http://127.0.0.1:8080",
            api_key="none",
            models=[ProviderModelConfig(id="toy-1")],
            stream=stream_toy,
        ),
    )
