"""The `anthropic-messages` stream: the Messages API over the official SDK, as pi's events."""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import AsyncIterator
from typing import Any

from pi_core.ai.builder import AssistantMessageBuilder
from pi_core.ai.model import Model
from pi_core.ai.protocol import LLMContext, StreamOptions
from pi_core.messages.llm import StopReason
from pi_core.messages.stream import AssistantMessageEvent
from pi_plugin_anthropic.convert import build_payload
from pi_plugin_anthropic.errors import describe_error

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

    def start(self, api_index: int, block: Any) -> list[AssistantMessageEvent]:
        builder = self.builder
        if block.type == "text":
            index, event = builder.text_start()
            self.open[api_index] = ("text", index)
            initial = getattr(block, "text", "") or ""
            return [event, builder.text_delta(index, initial)] if initial else [event]
        if block.type == "thinking":
            index, thinking = builder.thinking_start()
            self.open[api_index] = ("thinking", index)
            return [thinking]
        if block.type == "redacted_thinking":
            index, redacted = builder.thinking_start(redacted=True)
            return [redacted, builder.thinking_end(index, block.data)]
        if block.type == "tool_use":
            index, call = builder.tool_call_start(block.id, block.name)
            self.open[api_index] = ("tool", index)
            return [call]
        return []  # server tools and their results are the API's business

    def delta(self, api_index: int, delta: Any) -> list[AssistantMessageEvent]:
        kind, index = self.open.get(api_index, ("", -1))
        if delta.type == "text_delta" and kind == "text":
            return [self.builder.text_delta(index, delta.text)]
        if delta.type == "thinking_delta" and kind == "thinking":
            return [self.builder.thinking_delta(index, delta.thinking)]
        if delta.type == "signature_delta" and kind == "thinking":
            self.signatures[index] = self.signatures.get(index, "") + delta.signature
        elif delta.type == "input_json_delta" and kind == "tool":
            return [self.builder.tool_call_delta(index, delta.partial_json)]
        return []

    def stop(self, api_index: int) -> list[AssistantMessageEvent]:
        kind, index = self.open.pop(api_index, ("", -1))
        if kind == "text":
            return [self.builder.text_end(index)]
        if kind == "thinking":
            return [self.builder.thinking_end(index, self.signatures.get(index))]
        if kind == "tool":
            return [self.builder.tool_call_end(index)]
        return []

    def stop_all(self) -> list[AssistantMessageEvent]:
        events: list[AssistantMessageEvent] = []
        for api_index in list(self.open):
            events += self.stop(api_index)
        return events


def _usage(builder: AssistantMessageBuilder, usage: Any) -> None:
    if usage is None:
        return
    builder.set_usage(
        input=getattr(usage, "input_tokens", None),
        output=getattr(usage, "output_tokens", None),
        cache_read=getattr(usage, "cache_read_input_tokens", None),
        cache_write=getattr(usage, "cache_creation_input_tokens", None),
    )


_CLIENTS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[Any, Any]] = (
    weakref.WeakKeyDictionary()
)


def _client(model: Model, options: StreamOptions) -> Any:
    """Return an SDK client, kept per event loop, base URL, key and headers (building one costs
    tens of milliseconds, which every turn of a tool loop would otherwise pay)."""
    from anthropic import AsyncAnthropic

    headers = {**(model.headers or {}), **(options.headers or {})}
    key = (model.base_url, options.api_key, tuple(sorted(headers.items())))
    clients = _CLIENTS.setdefault(asyncio.get_running_loop(), {})
    if key not in clients:
        clients[key] = AsyncAnthropic(
            base_url=model.base_url or None,
            api_key=options.api_key or "no-key",
            default_headers=headers,
            max_retries=0,
        )
    return clients[key]


async def stream_messages(
    model: Model, context: LLMContext, options: StreamOptions
) -> AsyncIterator[AssistantMessageEvent]:
    """Stream one Messages API response (the SDK is imported here, not at start-up)."""
    builder = AssistantMessageBuilder(model)
    blocks = _Blocks(builder)
    signal = options.signal
    client = _client(model, options)
    payload = build_payload(model, context, options)
    if options.on_payload is not None:
        payload = await options.on_payload(payload) or payload
    yield builder.start()
    stop: StopReason | None = None
    finished = False
    remove_listener = None
    try:
        if signal is not None and signal.aborted:
            raise asyncio.CancelledError
        stream: Any = await client.messages.create(**payload)
        if signal is not None:
            remove_listener = signal.add_listener(lambda: asyncio.ensure_future(stream.close()))
        async for event in stream:
            if event.type == "message_start":
                _usage(builder, event.message.usage)
            elif event.type == "content_block_start":
                for out in blocks.start(event.index, event.content_block):
                    yield out
            elif event.type == "content_block_delta":
                for out in blocks.delta(event.index, event.delta):
                    yield out
            elif event.type == "content_block_stop":
                for out in blocks.stop(event.index):
                    yield out
            elif event.type == "message_delta":
                _usage(builder, event.usage)
                if event.delta.stop_reason:
                    stop = _STOP.get(event.delta.stop_reason, "stop")
            elif event.type == "message_stop":
                finished = True
        if signal is not None and signal.aborted:
            raise asyncio.CancelledError
        if not finished:
            raise ConnectionError("the connection closed before the response finished")
    except (asyncio.CancelledError, Exception) as error:
        for out in blocks.stop_all():
            yield out
        if (signal is not None and signal.aborted) or isinstance(error, asyncio.CancelledError):
            yield builder.error("Operation aborted", aborted=True)
        else:
            yield builder.error(describe_error(error))
        return
    finally:
        if remove_listener is not None:
            remove_listener()
    for out in blocks.stop_all():
        yield out
    if stop == "error":
        yield builder.error("The model refused to answer (stop_reason: refusal)")
        return
    yield builder.done(stop)
