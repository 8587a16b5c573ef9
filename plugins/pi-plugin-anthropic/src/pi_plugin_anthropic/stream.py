"""The `anthropic-messages` stream: the Messages API over httpx, as pi's events."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator, Callable
from typing import Any

from pi_core.messages import StopReason
from pi_core.providers import (
    AssistantMessageBuilder,
    AssistantMessageEvent,
    EncodedParts,
    LLMContext,
    Model,
    StreamOptions,
    WireAPI,
    WireRequest,
    WireTranslator,
    run_stream,
)
from pi_plugin_anthropic.claude_code_tools import from_claude_code
from pi_plugin_anthropic.convert import build_payload
from pi_plugin_anthropic.errors import describe_error
from pi_plugin_anthropic.oauth_identity import is_oauth_token
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
    """Maps the API's block indexes to ours and remembers each block's kind and signature;
    `rename` gives a tool call its name among the request's tools."""

    def __init__(
        self, builder: AssistantMessageBuilder, rename: Callable[[str], str] | None = None
    ) -> None:
        self.builder = builder
        self.rename = rename
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
            name = block.get("name") or ""
            if self.rename is not None:
                name = self.rename(name)
            index, call = builder.tool_call_start(block.get("id") or "", name)
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


class MessagesEvents(WireTranslator[dict[str, Any]]):
    """The Messages API's stream events (or one whole Message) as pi's events (`rename`: see
    `_Blocks`)."""

    def __init__(
        self, builder: AssistantMessageBuilder, rename: Callable[[str], str] | None = None
    ) -> None:
        super().__init__(builder)
        self.blocks = _Blocks(builder, rename)
        self.stop: StopReason | None = None
        self.finished = False

    def handle(self, event: dict[str, Any]) -> list[AssistantMessageEvent]:
        """Translate one stream event."""
        kind = event.get("type")
        if kind == "content_block_delta":
            return self.blocks.delta(event["index"], event["delta"])
        if kind == "content_block_start":
            return self.blocks.start(event["index"], event["content_block"])
        if kind == "content_block_stop":
            return self.blocks.stop(event["index"])
        if kind == "message_start":
            message = event.get("message") or {}
            self.builder.message.response_id = message.get("id")
            _usage(self.builder, message.get("usage"))
        elif kind == "message_delta":
            _usage(self.builder, event.get("usage"))
            reason = (event.get("delta") or {}).get("stop_reason")
            if reason:
                self.stop = _STOP.get(reason, "stop")
        elif kind == "message_stop":
            self.finished = True
        return []

    def handle_body(self, body: Any) -> list[AssistantMessageEvent]:
        """Translate a whole Message (the server ignored `stream`) as the stream it stands for."""
        events = message_as_events(body)
        return [out for event in events for out in self.handle(event)]

    def close(self) -> list[AssistantMessageEvent]:
        """Close every block still open."""
        return self.blocks.stop_all()

    def finish(self) -> StopReason | None:
        """The stop reason; a stream cut before `message_stop`, or a refusal, raise."""
        if not self.finished:
            raise ConnectionError(_CUT)
        if self.stop == "error":
            raise Refused("The model refused to answer (stop_reason: refusal)")
        return self.stop


class Refused(Exception):
    """The model refused to answer."""


def _request(
    model: Model, options: StreamOptions, payload: dict[str, Any], parts: EncodedParts
) -> WireRequest:
    headers = request_headers(model, options, bool(payload.get("tools")))
    return WireRequest(base_url(model), "v1/messages", encode_payload(payload, parts), headers)


MESSAGES: WireAPI[dict[str, Any]] = WireAPI(
    payload=build_payload,
    request=_request,
    translator=MessagesEvents,
    decode=stream_events,
    describe_error=describe_error,
)
"""The Messages API on the shared stream skeleton."""


def stream_messages(
    model: Model, context: LLMContext, options: StreamOptions
) -> AsyncIterator[AssistantMessageEvent]:
    """Stream one Messages API response; with a subscription token the answer's tool calls get
    back the names of the request's tools (pi's mapping from Claude Code's names)."""
    if not is_oauth_token(options.api_key):
        return run_stream(MESSAGES, model, context, options)
    names = [tool.name for tool in context.tools or []]

    def translator(builder: AssistantMessageBuilder) -> MessagesEvents:
        return MessagesEvents(builder, lambda name: from_claude_code(name, names))

    return run_stream(dataclasses.replace(MESSAGES, translator=translator), model, context, options)
