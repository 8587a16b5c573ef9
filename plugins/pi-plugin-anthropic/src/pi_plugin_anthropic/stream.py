"""The `anthropic-messages` stream: the Messages API over httpx, as pi's events."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

from pi_core.messages import StopReason
from pi_core.providers import (
    AssistantMessageBuilder,
    AssistantMessageEvent,
    EncodedParts,
    LLMContext,
    Model,
    StreamOptions,
)
from pi_plugin_anthropic.convert import build_payload
from pi_plugin_anthropic.errors import describe_error
from pi_plugin_anthropic.transport import (
    base_url,
    encode_payload,
    message_as_events,
    request_headers,
    stream_events,
)

_CUT = "Connection lost: the stream ended before message_stop"

_STOP: dict[str, StopReason] = {
    "end_turn": "stop",
    "stop_sequence": "stop",
    "pause_turn": "stop",
    "max_tokens": "length",
    "model_context_window_exceeded": "length",
    "tool_use": "toolUse",
    "refusal": "error",
}


class _Blocks:
    """Maps the API's block indexes to ours and remembers each block's kind and signature."""

    def __init__(self, builder: AssistantMessageBuilder) -> None:
        self.builder = builder
        self.open: dict[int, tuple[str, int]] = {}
        self.signatures: dict[int, str] = {}

    def start(self, api_index: int, block: dict[str, Any]) -> list[AssistantMessageEvent]:
        """Open our block for the API's `content_block_start`."""
        builder = self.builder
        kind = block.get("type")
        if kind == "text":
            index, event = builder.text_start()
            self.open[api_index] = ("text", index)
            initial = block.get("text") or ""
            return [event, builder.text_delta(index, initial)] if initial else [event]
        if kind == "thinking":
            index, thinking = builder.thinking_start()
            self.open[api_index] = ("thinking", index)
            return [thinking]
        if kind == "redacted_thinking":
            index, redacted = builder.thinking_start(redacted=True)
            return [redacted, builder.thinking_end(index, block.get("data"))]
        if kind == "tool_use":
            index, call = builder.tool_call_start(block.get("id") or "", block.get("name") or "")
            self.open[api_index] = ("tool", index)
            return [call]
        return []  # server tools and their results are the API's business

    def delta(self, api_index: int, delta: dict[str, Any]) -> list[AssistantMessageEvent]:
        """Add a `content_block_delta` to the block it belongs to."""
        kind, index = self.open.get(api_index, ("", -1))
        delta_type = delta.get("type")
        if delta_type == "text_delta" and kind == "text":
            return [self.builder.text_delta(index, delta.get("text") or "")]
        if delta_type == "thinking_delta" and kind == "thinking":
            return [self.builder.thinking_delta(index, delta.get("thinking") or "")]
        if delta_type == "signature_delta" and kind == "thinking":
            self.signatures[index] = self.signatures.get(index, "") + (delta.get("signature") or "")
        elif delta_type == "input_json_delta" and kind == "tool":
            return [self.builder.tool_call_delta(index, delta.get("partial_json") or "")]
        return []

    def stop(self, api_index: int) -> list[AssistantMessageEvent]:
        """Close the block of a `content_block_stop`."""
        kind, index = self.open.pop(api_index, ("", -1))
        if kind == "text":
            return [self.builder.text_end(index)]
        if kind == "thinking":
            return [self.builder.thinking_end(index, self.signatures.get(index))]
        if kind == "tool":
            return [self.builder.tool_call_end(index)]
        return []

    def stop_all(self) -> list[AssistantMessageEvent]:
        """Close every block still open."""
        events: list[AssistantMessageEvent] = []
        for api_index in list(self.open):
            events += self.stop(api_index)
        return events


def _usage(builder: AssistantMessageBuilder, usage: dict[str, Any] | None) -> None:
    if not usage:
        return
    builder.set_usage(
        input=usage.get("input_tokens"),
        output=usage.get("output_tokens"),
        cache_read=usage.get("cache_read_input_tokens"),
        cache_write=usage.get("cache_creation_input_tokens"),
    )


async def stream_messages(
    model: Model, context: LLMContext, options: StreamOptions
) -> AsyncIterator[AssistantMessageEvent]:
    """Stream one Messages API response."""
    builder = AssistantMessageBuilder(model)
    blocks = _Blocks(builder)
    signal = options.signal
    parts = EncodedParts()
    payload = build_payload(model, context, options, parts)
    if options.on_payload is not None:
        payload = await options.on_payload(payload) or payload
    yield builder.start()
    stop: StopReason | None = None
    finished = False
    try:
        from pi_core.ai.http import RetryPolicy, is_json, open_stream, read_json

        body = encode_payload(payload, parts)
        headers = request_headers(model, options, bool(payload.get("tools")))
        async with open_stream(
            base_url(model),
            "v1/messages",
            body,
            headers,
            signal,
            options.on_response,
            RetryPolicy.of(options.max_retries, options.timeout_ms),
        ) as response:
            if is_json(response):  # the server ignored `stream` and sent the whole message
                events: Any = _as_async(message_as_events(await read_json(response)))
            else:
                events = stream_events(response)
            async for event in events:
                kind = event.get("type")
                if kind == "content_block_delta":
                    for out in blocks.delta(event["index"], event["delta"]):
                        yield out
                elif kind == "content_block_start":
                    for out in blocks.start(event["index"], event["content_block"]):
                        yield out
                elif kind == "content_block_stop":
                    for out in blocks.stop(event["index"]):
                        yield out
                elif kind == "message_start":
                    message = event.get("message") or {}
                    builder.message.response_id = message.get("id")
                    _usage(builder, message.get("usage"))
                elif kind == "message_delta":
                    _usage(builder, event.get("usage"))
                    reason = (event.get("delta") or {}).get("stop_reason")
                    if reason:
                        stop = _STOP.get(reason, "stop")
                elif kind == "message_stop":
                    finished = True
        if signal is not None and signal.aborted:
            raise asyncio.CancelledError
        if not finished:
            raise ConnectionError(_CUT)
    except (asyncio.CancelledError, Exception) as error:
        for out in blocks.stop_all():
            yield out
        if (signal is not None and signal.aborted) or isinstance(error, asyncio.CancelledError):
            yield builder.error("Operation aborted", aborted=True)
        else:
            yield builder.error(describe_error(error))
        return
    for out in blocks.stop_all():
        yield out
    if stop == "error":
        yield builder.error("The model refused to answer (stop_reason: refusal)")
        return
    yield builder.done(stop)


async def _as_async(events: list[dict[str, Any]]) -> AsyncIterator[dict[str, Any]]:
    for event in events:
        yield event
