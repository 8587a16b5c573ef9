"""The `openai-completions` stream: Chat Completions over httpx, as pi's events."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from dataclasses import replace
from functools import partial
from typing import Any

from pi_core.abort import AbortSignal
from pi_core.messages import StopReason, ToolCall
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
    describe_error,
    run_stream,
    with_retry_after,
)
from pi_plugin_openai.completions_tokens import collect_tokens
from pi_plugin_openai.convert import affinity_headers, build_payload
from pi_plugin_openai.transport import (
    DONE,
    data_events,
    json_body,
    upstream_detail,
    wire_request,
)

_CUT = "Connection lost: the stream ended without a finish reason or [DONE]"
_FINISH: dict[str, StopReason] = {
    "stop": "stop",
    "end": "stop",
    "length": "length",
    "tool_calls": "toolUse",
    "function_call": "toolUse",
}
"""pi's finish reasons; any other (`content_filter`, `network_error`, …) ends in an error."""


_REASONING = ("reasoning_content", "reasoning", "reasoning_text")
"""Where servers put reasoning; the first non-empty one counts (some send two with the same)."""


class _Blocks(WireTranslator[dict[str, Any]]):
    """Which block each kind of delta goes to: as pi, one text and one thinking block per
    response, and every block stays open until the stream ends (`close`)."""

    def __init__(self, builder: AssistantMessageBuilder, signal: AbortSignal | None = None) -> None:
        super().__init__(builder)
        self.signal = signal
        self.text: int | None = None
        self.thinking: int | None = None
        self.thinking_field: str | None = None
        self.tools: dict[int, int] = {}  # the server's tool-call index → content index
        self.tool_ids: dict[str, int] = {}  # tool-call id → content index
        self.tool_blocks: list[int] = []  # content indexes of the tool calls, in order
        self.finish_reason: StopReason | None = None
        self.refused: str | None = None  # a finish reason pi counts as an error
        self.complete = False  # `[DONE]` came, or the whole answer as one JSON body
        self.read_all = False  # the stream was read to its end (`finish` was reached)

    def handle(self, chunk: dict[str, Any]) -> list[AssistantMessageEvent]:
        """Convert one chunk (its JSON): usage, deltas of each choice, and the finish reason."""
        if chunk is DONE:
            self.complete = True
            return []
        usage = chunk.get("usage")
        choices = chunk.get("choices") or []
        if not usage and choices and isinstance(choices[0], dict):
            usage = choices[0].get("usage")  # where Moonshot puts it
        if usage:
            _record_usage(self.builder, usage)
        message = self.builder.message
        collect_tokens(message, chunk)
        if message.response_id is None and chunk.get("id"):
            message.response_id = chunk["id"]  # as pi: the first chunk's id
        served = chunk.get("model")
        if message.response_model is None and served and served != message.model:
            # as pi: the model the server says answered, when it is not the one asked for
            message.response_model = served if isinstance(served, str) else None
        events: list[AssistantMessageEvent] = []
        for choice in choices:
            delta = choice.get("delta")
            if delta:
                events += _delta_events(self, delta)
            finish = choice.get("finish_reason")
            if finish:
                self.finish_reason = _FINISH.get(finish, "error")
                self.refused = None if finish in _FINISH else str(finish)
        return events

    def handle_body(self, body: Any) -> list[AssistantMessageEvent]:
        """Convert the one JSON body a server sent instead of a stream."""
        self.complete = True
        chunks = reasoning_first(completion_as_chunk(json_body(body)))
        return [event for chunk in chunks for event in self.handle(chunk)]

    def finish(self) -> StopReason | None:
        """The finish reason, `stop` when the server sent none (as pi); a stream cut before one
        (and before `[DONE]`) raises, and so does a finish reason pi counts as an error
        (`Provider finish_reason: content_filter`)."""
        self.read_all = True
        if not self.complete and self.finish_reason is None:
            raise ConnectionError(_CUT)
        if self.finish_reason == "error":
            raise ProviderFinishError(f"Provider finish_reason: {self.refused}")
        return self.finish_reason or "stop"

    def close(self) -> list[AssistantMessageEvent]:
        """Close every block, in content order, as pi ends them all once the stream is read (or
        aborted); when reading it failed (an error event, a broken connection) the blocks are
        completed without events, as pi sends none then."""
        events = self._close_blocks()
        aborted = self.signal is not None and self.signal.aborted
        return events if self.read_all or aborted else []

    def _close_blocks(self) -> list[AssistantMessageEvent]:
        events: list[AssistantMessageEvent] = []
        opened = [self.text, self.thinking, *self.tool_blocks]
        for index in sorted(i for i in opened if i is not None):
            if index == self.text:
                events.append(self.builder.text_end(index))
            elif index == self.thinking:
                # the reasoning's field is its signature: the next request sends it back there
                events.append(self.builder.thinking_end(index, self.thinking_field))
            else:
                events.append(self.builder.tool_call_end(index))
        self.text = self.thinking = None
        self.tools, self.tool_ids, self.tool_blocks = {}, {}, []
        return events


def _delta_events(blocks: _Blocks, delta: dict[str, Any]) -> list[AssistantMessageEvent]:
    builder = blocks.builder
    content = delta.get("content")
    if len(delta) == 1 and blocks.text is not None and type(content) is str and content:
        return [builder.text_delta(blocks.text, content)]  # more of the open text: most chunks
    events: list[AssistantMessageEvent] = []
    # pi's order within one chunk: text, then reasoning, then tool calls
    if isinstance(content, str) and content:
        if blocks.text is None:
            blocks.text, started_text = builder.text_start()
            events.append(started_text)
        events.append(builder.text_delta(blocks.text, content))
    field = next((f for f in _REASONING if isinstance(delta.get(f), str) and delta[f]), None)
    if field is not None:
        reasoning = delta[field]
        if blocks.thinking is None:
            blocks.thinking, started = builder.thinking_start()
            blocks.thinking_field = field
            events.append(started)
        events.append(builder.thinking_delta(blocks.thinking, reasoning))
    for position, call in enumerate(delta.get("tool_calls") or []):
        function = call.get("function") or {}
        index = _tool_block(blocks, call, function, position, events)
        # a delta for every piece, the header's (id and name, no arguments) as "" as pi sends it
        events.append(builder.tool_call_delta(index, function.get("arguments") or ""))
    details = delta.get("reasoning_details")
    if isinstance(details, list):
        _sign_tool_calls(builder, details)
    return events


def _tool_block(
    blocks: _Blocks,
    call: dict[str, Any],
    function: dict[str, Any],
    position: int,
    events: list[AssistantMessageEvent],
) -> int:
    """The tool call a piece belongs to, as pi finds it: by the server's `index`, else by its
    id, else a new one (opened here); a name or id the first piece lacked is filled in."""
    stream_index = call.get("index")
    if not isinstance(stream_index, int):
        stream_index = None
    call_id = call.get("id") or None
    index = blocks.tools.get(stream_index) if stream_index is not None else None
    if index is None and call_id:
        index = blocks.tool_ids.get(call_id)
    if index is None:
        fallback = f"call_{stream_index if stream_index is not None else position}"
        index, started = blocks.builder.tool_call_start(
            call_id or fallback, function.get("name") or ""
        )
        blocks.tool_blocks.append(index)
        events.append(started)
    else:
        block = blocks.builder.message.content[index]
        if isinstance(block, ToolCall) and not block.name and function.get("name"):
            block.name = function["name"]
    if stream_index is not None:
        blocks.tools.setdefault(stream_index, index)
    if call_id:
        blocks.tool_ids[call_id] = index
    return index


def _sign_tool_calls(builder: AssistantMessageBuilder, details: list[Any]) -> None:
    """Keep OpenRouter's encrypted reasoning on the tool call it belongs to (its signature), so
    the next request sends it back in `reasoning_details`, as pi does."""
    for detail in details:
        if not isinstance(detail, dict) or detail.get("type") != "reasoning.encrypted":
            continue
        if not detail.get("id") or not detail.get("data"):
            continue
        for block in builder.message.content:
            if isinstance(block, ToolCall) and block.id == detail["id"]:
                block.thought_signature = json.dumps(detail, separators=(",", ":"))
                break


def _record_usage(builder: AssistantMessageBuilder, usage: dict[str, Any]) -> None:
    """Token counts as pi reads them: cache hits from `cached_tokens` (DeepSeek:
    `prompt_cache_hit_tokens`), less the tokens this request wrote to the cache where a server
    counts those in the hits too (seen on OpenRouter)."""
    details = usage.get("prompt_tokens_details") or {}
    cached = details.get("cached_tokens")
    if cached is None:
        cached = usage.get("prompt_cache_hit_tokens")
    written = details.get("cache_write_tokens") or 0
    read = max(0, (cached or 0) - written) if written > 0 else cached or 0
    builder.set_usage(
        input=max(0, (usage.get("prompt_tokens") or 0) - read - written),
        output=usage.get("completion_tokens") or 0,
        cache_read=read,
        cache_write=written,
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
        tokens = {key: choice[key] for key in ("token_ids", "logprobs") if key in choice}
        choices.append(
            {"index": choice.get("index", position), "delta": delta, "finish_reason": finish,
             **tokens}
        )  # fmt: skip
    return {**body, "object": "chat.completion.chunk", "choices": choices}


def reasoning_first(chunk: dict[str, Any]) -> list[dict[str, Any]]:
    """Split a whole-message chunk so its reasoning comes before its text and tool calls (within
    one chunk, pi reads text first; a complete message's reasoning came first)."""
    thoughts, rest = [], []
    for choice in chunk.get("choices") or []:
        delta = dict(choice.get("delta") or {})
        fields = {f: delta.pop(f) for f in _REASONING if f in delta}
        if fields:
            plain = {k: v for k, v in choice.items() if k not in ("token_ids", "logprobs")}
            thoughts.append({**plain, "delta": fields, "finish_reason": None})  # tokens: once
        rest.append({**choice, "delta": delta})
    if not thoughts:
        return [chunk]
    return [{**chunk, "choices": thoughts}, {**chunk, "choices": rest}]


class ProviderFinishError(Exception):
    """The response finished for a reason pi counts as an error (`content_filter`, …)."""


def _request(
    model: Model, options: StreamOptions, payload: dict[str, Any], parts: EncodedParts
) -> WireRequest:
    headers = affinity_headers(model, options)
    return wire_request(model, options, "chat/completions", payload, parts, headers)


def _describe(error: BaseException) -> str:
    """The skeleton's error text, with the upstream provider's words on a line of their own
    where OpenRouter gives them (before any `(retry after N s)`), as pi adds them."""
    from pi_core.ai.http import ProviderHTTPError

    detail = upstream_detail(error)
    if detail is None:
        return describe_error(error)
    if isinstance(error, ProviderHTTPError):
        text = f"{error.status} {error.api_message or error.text}\n{detail}"
        return with_retry_after(text, error.retry_after_ms)
    return f"{describe_error(error)}\n{detail}"


COMPLETIONS: WireAPI[dict[str, Any]] = WireAPI(
    payload=build_payload,
    request=_request,
    translator=_Blocks,
    decode=data_events,
    describe_error=_describe,
)
"""Chat Completions on the shared stream skeleton."""


def stream_completions(
    model: Model, context: LLMContext, options: StreamOptions
) -> AsyncIterator[AssistantMessageEvent]:
    """Stream one Chat Completions response."""
    if options.signal is None:
        return run_stream(COMPLETIONS, model, context, options)
    wire = replace(COMPLETIONS, translator=partial(_Blocks, signal=options.signal))
    return run_stream(wire, model, context, options)
