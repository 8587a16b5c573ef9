"""The `openai-completions` stream: Chat Completions over the official SDK, as pi's events."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

from pi_core.ai.builder import AssistantMessageBuilder
from pi_core.ai.model import Model
from pi_core.ai.protocol import LLMContext, StreamOptions
from pi_core.messages.llm import StopReason
from pi_core.messages.stream import AssistantMessageEvent
from pi_plugin_openai.convert import build_payload
from pi_plugin_openai.errors import describe_error
from pi_plugin_openai.transport import make_client, open_response

_FINISH: dict[str, StopReason] = {
    "stop": "stop",
    "length": "length",
    "tool_calls": "toolUse",
    "function_call": "toolUse",
    "content_filter": "error",
}


class _Blocks:
    """Which content block is open, so deltas of one kind go to one block."""

    def __init__(self, builder: AssistantMessageBuilder) -> None:
        self.builder = builder
        self.text: int | None = None
        self.thinking: int | None = None
        self.tools: dict[int, int] = {}
        self.finish: StopReason | None = None

    def chunk(self, chunk: Any) -> list[AssistantMessageEvent]:
        """Convert one chunk: usage, deltas of each choice, and the finish reason."""
        if chunk.usage is not None:
            _record_usage(self.builder, chunk.usage)
        events: list[AssistantMessageEvent] = []
        for choice in chunk.choices or []:
            if choice.delta is not None:
                events += _delta_events(self, choice.delta)
            if choice.finish_reason:
                self.finish = _FINISH.get(choice.finish_reason, "stop")
        return events

    def close_text(self) -> list[AssistantMessageEvent]:
        """Close the open text block, if any."""
        if self.text is None:
            return []
        index, self.text = self.text, None
        return [self.builder.text_end(index)]

    def close_thinking(self) -> list[AssistantMessageEvent]:
        """Close the open thinking block, if any."""
        if self.thinking is None:
            return []
        index, self.thinking = self.thinking, None
        return [self.builder.thinking_end(index)]

    def close_all(self) -> list[AssistantMessageEvent]:
        """Close every open block, tool calls included."""
        events = self.close_thinking() + self.close_text()
        for index in self.tools.values():
            events.append(self.builder.tool_call_end(index))
        self.tools = {}
        return events


def _delta_events(blocks: _Blocks, delta: Any) -> list[AssistantMessageEvent]:
    builder = blocks.builder
    events: list[AssistantMessageEvent] = []
    reasoning = getattr(delta, "reasoning_content", None) or getattr(delta, "reasoning", None)
    if isinstance(reasoning, str) and reasoning:
        if blocks.thinking is None:
            blocks.thinking, started = builder.thinking_start()
            events.append(started)
        events.append(builder.thinking_delta(blocks.thinking, reasoning))
    if delta.content:
        events += blocks.close_thinking()
        if blocks.text is None:
            blocks.text, started_text = builder.text_start()
            events.append(started_text)
        events.append(builder.text_delta(blocks.text, delta.content))
    for call in delta.tool_calls or []:
        events += blocks.close_thinking() + blocks.close_text()
        index = blocks.tools.get(call.index)
        if index is None:
            name = call.function.name if call.function else ""
            index, started_call = builder.tool_call_start(
                call.id or f"call_{call.index}", name or ""
            )
            blocks.tools[call.index] = index
            events.append(started_call)
        if call.function and call.function.arguments:
            events.append(builder.tool_call_delta(index, call.function.arguments))
    return events


def _record_usage(builder: AssistantMessageBuilder, usage: Any) -> None:
    details = getattr(usage, "prompt_tokens_details", None)
    cached = (getattr(details, "cached_tokens", None) or 0) if details else 0
    builder.set_usage(
        input=(usage.prompt_tokens or 0) - cached,
        output=usage.completion_tokens or 0,
        cache_read=cached,
    )


def completion_as_chunk(body: dict[str, Any]) -> dict[str, Any]:
    """Return a complete `chat.completion` body as one equivalent `chat.completion.chunk`."""
    if body.get("error") and not body.get("choices"):
        error = body["error"]
        raise ValueError(error.get("message") if isinstance(error, dict) else str(error))
    choices = []
    for position, choice in enumerate(body.get("choices") or []):
        delta = dict(choice.get("message") or {})
        calls = delta.pop("tool_calls", None) or []
        delta["tool_calls"] = [{**call, "index": i} for i, call in enumerate(calls)] or None
        finish = choice.get("finish_reason")
        choices.append(
            {"index": choice.get("index", position), "delta": delta, "finish_reason": finish}
        )
    return {**body, "object": "chat.completion.chunk", "choices": choices}


async def stream_completions(
    model: Model, context: LLMContext, options: StreamOptions
) -> AsyncIterator[AssistantMessageEvent]:
    """Stream one Chat Completions response (the SDK is imported here, not at start-up)."""
    from openai.types.chat import ChatCompletionChunk

    builder = AssistantMessageBuilder(model)
    blocks = _Blocks(builder)
    signal = options.signal
    client = make_client(model, options, {})
    payload = build_payload(model, context, options)
    if options.on_payload is not None:
        payload = await options.on_payload(payload) or payload
    yield builder.start()
    try:
        create = client.chat.completions.with_streaming_response.create
        async with open_response(create, payload, options) as body:
            if isinstance(body, dict):  # the server ignored `stream` and sent one JSON body
                whole = ChatCompletionChunk.construct(**completion_as_chunk(body))
                for event in blocks.chunk(whole):
                    yield event
            else:
                async for chunk in body:
                    for event in blocks.chunk(chunk):
                        yield event
        if signal is not None and signal.aborted:
            raise asyncio.CancelledError
    except (asyncio.CancelledError, Exception) as error:
        for event in blocks.close_all():
            yield event
        aborted = signal is not None and signal.aborted
        if aborted or isinstance(error, asyncio.CancelledError):
            yield builder.error("Operation aborted", aborted=True)
        else:
            yield builder.error(describe_error(error))
        return
    for event in blocks.close_all():
        yield event
    if blocks.finish == "error":
        yield builder.error("The response was stopped by the provider's content filter")
        return
    yield builder.done(blocks.finish)
