"""Builds an assistant message from a provider's stream and produces the matching events.

Providers call `start()`, then `text_*`, `thinking_*` and `tool_call_*` as pieces arrive, then
`done()` or `error()`. Text is kept as chunks: the message's text blocks are exact at every
`*_end`, `done` and `error` event, and while a block streams they are brought up to date whenever
the unsynced part is as long as the synced one (and always below 16 KiB), so a huge response costs
O(n), not O(n²). Read `delta` for exact streaming text, or call
`partial_text.bring_up_to_date(message)` before reading the partial message itself.
"""

from __future__ import annotations

from typing import Any, Literal, TypeVar, cast

from pi_core import deep
from pi_core.ai.cost import calculate_cost
from pi_core.ai.model import Model
from pi_core.messages import partial_text
from pi_core.messages.content import TextContent, ThinkingContent, ToolCall
from pi_core.messages.llm import AssistantMessage, StopReason, Usage
from pi_core.messages.stream import (
    StreamDone,
    StreamError,
    StreamStart,
    TextDelta,
    TextEnd,
    TextStart,
    ThinkingDelta,
    ThinkingEnd,
    ThinkingStart,
    ToolCallDelta,
    ToolCallEnd,
    ToolCallStart,
)
from pi_core.messages.trusted import construct_trusted

_EXACT_BELOW = 16 * 1024
_Delta = TypeVar("_Delta", TextDelta, ThinkingDelta, ToolCallDelta)


class _Chunks:
    __slots__ = ("parts", "synced", "unsynced")

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.synced = 0
        self.unsynced = 0

    def add(self, delta: str) -> bool:
        """Add a piece; return whether the block's text should be refreshed now."""
        self.parts.append(delta)
        self.unsynced += len(delta)
        return self.synced + self.unsynced <= _EXACT_BELOW or self.unsynced >= self.synced

    def text(self) -> str:
        joined = "".join(self.parts)
        self.parts = [joined]
        self.synced, self.unsynced = len(joined), 0
        return joined


class AssistantMessageBuilder:
    """Accumulates one streamed response and emits pi's stream events for it."""

    def __init__(self, model: Model) -> None:
        self.model = model
        self.message = AssistantMessage(
            api=model.api, provider=model.provider, model=model.id, usage=Usage(total_tokens=0)
        )
        self._chunks: dict[int, _Chunks] = {}
        self._lagging = False  # a text block lacks deltas (noted in partial_text)

    # --- lifecycle ------------------------------------------------------------------------

    def start(self) -> StreamStart:
        """The response began."""
        return StreamStart.model_construct(type="start", partial=self.message)

    def done(self, stop_reason: StopReason | None = None) -> StreamDone | StreamError:
        """Finish; the stop reason defaults to toolUse when there are tool calls."""
        self._sync_all()
        if stop_reason is None:
            has_tools = any(isinstance(b, ToolCall) for b in self.message.content)
            stop_reason = "toolUse" if has_tools else "stop"
        if stop_reason in ("error", "aborted"):
            return self.error(self.message.error_message or "stream ended with an error")
        finished = cast(Literal["stop", "length", "toolUse"], stop_reason)
        self.message.stop_reason = finished
        self._finish_usage()
        return StreamDone.model_construct(type="done", reason=finished, message=self.message)

    def error(self, error_message: str, aborted: bool = False) -> StreamError:
        """Fail, keeping whatever arrived."""
        self._sync_all()
        reason: Literal["aborted", "error"] = "aborted" if aborted else "error"
        self.message.stop_reason = reason
        self.message.error_message = error_message
        self._finish_usage()
        return StreamError.model_construct(type="error", reason=reason, error=self.message)

    def set_usage(
        self,
        input: int | None = None,
        output: int | None = None,
        cache_read: int | None = None,
        cache_write: int | None = None,
    ) -> None:
        """Record token counts (each may arrive separately); the total and cost follow at once,
        as pi's do (Anthropic's `message_start` counts show in the partials)."""
        usage = self.message.usage
        if input is not None:
            usage.input = input
        if output is not None:
            usage.output = output
        if cache_read is not None:
            usage.cache_read = cache_read
        if cache_write is not None:
            usage.cache_write = cache_write
        self._finish_usage()

    # --- text -----------------------------------------------------------------------------

    def text_start(self, signature: str | None = None) -> tuple[int, TextStart]:
        """Open a text block; returns its index and the event."""
        index = self._add(TextContent(text="", text_signature=signature))
        return index, TextStart.model_construct(
            type="text_start", content_index=index, partial=self.message
        )

    def text_delta(self, index: int, delta: str) -> TextDelta:
        """Append text to block `index`."""
        self._append(index, delta)
        return self._delta_event(TextDelta, "text_delta", index, delta)

    def text_end(self, index: int, signature: str | None = None) -> TextEnd:
        """Close text block `index`."""
        block = self.message.content[index]
        assert isinstance(block, TextContent)
        self._sync(index)
        if signature is not None:
            block.text_signature = signature
        return TextEnd.model_construct(
            type="text_end", content_index=index, content=block.text, partial=self.message
        )

    # --- thinking -------------------------------------------------------------------------

    def thinking_start(self, redacted: bool = False) -> tuple[int, ThinkingStart]:
        """Open a thinking block."""
        index = self._add(ThinkingContent(thinking="", redacted=redacted or None))
        return index, ThinkingStart.model_construct(
            type="thinking_start", content_index=index, partial=self.message
        )

    def thinking_delta(self, index: int, delta: str) -> ThinkingDelta:
        """Append reasoning to block `index`."""
        self._append(index, delta)
        return self._delta_event(ThinkingDelta, "thinking_delta", index, delta)

    def thinking_end(self, index: int, signature: str | None = None) -> ThinkingEnd:
        """Close thinking block `index`, with the provider's signature if any."""
        block = self.message.content[index]
        assert isinstance(block, ThinkingContent)
        self._sync(index)
        if signature is not None:
            block.thinking_signature = signature
        return ThinkingEnd.model_construct(
            type="thinking_end", content_index=index, content=block.thinking, partial=self.message
        )

    # --- tool calls -----------------------------------------------------------------------

    def tool_call_start(self, call_id: str, name: str) -> tuple[int, ToolCallStart]:
        """Open a tool call."""
        index = self._add(ToolCall(id=call_id, name=name, arguments={}))
        return index, ToolCallStart.model_construct(
            type="toolcall_start", content_index=index, partial=self.message
        )

    def tool_call_delta(self, index: int, delta: str) -> ToolCallDelta:
        """Append a piece of the tool call's JSON arguments."""
        self._chunks_of(index).parts.append(delta)
        return self._delta_event(ToolCallDelta, "toolcall_delta", index, delta)

    def tool_call_end(self, index: int, arguments: dict[str, Any] | None = None) -> ToolCallEnd:
        """Close a tool call; its arguments are parsed from the deltas unless given."""
        block = self.message.content[index]
        assert isinstance(block, ToolCall)
        if arguments is None:
            raw = "".join(self._chunks.pop(index, _Chunks()).parts)
            arguments = parse_tool_arguments(raw)
        block.arguments = arguments
        return ToolCallEnd.model_construct(
            type="toolcall_end", content_index=index, tool_call=block, partial=self.message
        )

    # --- internals ------------------------------------------------------------------------

    def _delta_event(self, model: type[_Delta], kind: str, index: int, delta: str) -> _Delta:
        # in the model's field order: construct_trusted keeps the dict as it is
        fields = {"content_index": index, "partial": self.message, "type": kind, "delta": delta}
        return construct_trusted(model, fields)

    def _add(self, block: Any) -> int:
        self.message.content.append(block)
        return len(self.message.content) - 1

    def _chunks_of(self, index: int) -> _Chunks:
        chunks = self._chunks.get(index)
        if chunks is None:  # not setdefault: that would build a spare _Chunks on every delta
            chunks = self._chunks[index] = _Chunks()
        return chunks

    def catch_up(self) -> None:
        """Bring every text and thinking block up to date with the deltas sent."""
        self._lagging = False
        self._sync_all()

    def _append(self, index: int, delta: str) -> None:
        if self._chunks_of(index).add(delta):
            self._sync(index)
        elif not self._lagging:
            self._lagging = True
            partial_text.lags(self)

    def _sync(self, index: int) -> None:
        chunks = self._chunks.get(index)
        if chunks is None:
            return
        block = self.message.content[index]
        # straight into the instance's dict: pydantic's __setattr__ costs more than the rest of a
        # delta, and the field is set already (the block was built with it)
        if isinstance(block, TextContent):
            block.__dict__["text"] = chunks.text()
        elif isinstance(block, ThinkingContent):
            block.__dict__["thinking"] = chunks.text()

    def _sync_all(self) -> None:
        for index, block in enumerate(self.message.content):
            if not isinstance(block, ToolCall):
                self._sync(index)

    def _finish_usage(self) -> None:
        usage = self.message.usage
        usage.total_tokens = usage.input + usage.output + usage.cache_read + usage.cache_write
        calculate_cost(self.model, usage)


def parse_tool_arguments(raw: str) -> dict[str, Any]:
    """Parse a tool call's JSON arguments; broken or empty JSON gives {} (the tool reports it)."""
    if not raw.strip():
        return {}
    try:
        value = deep.loads(raw)
    except (ValueError, RecursionError):  # RecursionError: deeper than deep.MAX_DEPTH
        return {}
    return value if isinstance(value, dict) else {}
