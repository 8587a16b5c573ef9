"""Responses API output, streamed as events or read from one JSON body, as pi's stream events.

Reasoning items become thinking blocks whose signature is the whole item as JSON (with its
`encrypted_content`), so the next request sends it back unchanged; message items become text
blocks signed with their id and phase; function calls become tool calls with the id
`call_id|item_id`.
"""

from __future__ import annotations

from typing import Any

from pi_core.messages import StopReason, ToolCall
from pi_core.providers import (
    AssistantMessageBuilder,
    AssistantMessageEvent,
    WireTranslator,
    json_text,
)
from pi_plugin_openai.responses_convert import text_signature
from pi_plugin_openai.transport import json_body

_CUT = "Connection lost: the stream ended without response.completed"

_STATUS: dict[str, StopReason] = {
    "completed": "stop",
    "incomplete": "length",
    "failed": "error",
    "cancelled": "error",
    "in_progress": "stop",
    "queued": "stop",
}
_KINDS = {"reasoning": "thinking", "message": "text", "function_call": "tool"}

Events = list[AssistantMessageEvent]


class ResponseFailed(Exception):
    """The API reported a failure in the response itself (an `error` or `response.failed`)."""


def _failure(response: dict[str, Any]) -> str:
    error = response.get("error") or {}
    details = response.get("incomplete_details") or {}
    if error:
        return f"{error.get('code') or 'unknown'}: {error.get('message') or 'no message'}"
    if details.get("reason"):
        return f"incomplete: {details['reason']}"
    return "Unknown error (no error details in response)"


def _final_text(item: dict[str, Any]) -> str:
    if item["type"] == "message":
        return "".join(
            (part.get("text") if part.get("type") == "output_text" else part.get("refusal")) or ""
            for part in item.get("content") or []
        )
    if item["type"] == "function_call":
        return item.get("arguments") or ""
    summary = "\n\n".join(part.get("text") or "" for part in item.get("summary") or [])
    content = "\n\n".join(part.get("text") or "" for part in item.get("content") or [])
    return summary or content


class ResponsesEvents(WireTranslator[dict[str, Any]]):
    """Follows one response's output items and turns them into builder events."""

    def __init__(self, builder: AssistantMessageBuilder) -> None:
        super().__init__(builder)
        self.open: tuple[str, int] | None = None  # kind and index of the block being streamed
        self.pieces: list[str] = []  # what the open block received so far
        self.summary_parts = 0
        self.stop: StopReason = "stop"
        self.finished = False

    # --- front ends -----------------------------------------------------------------------

    def handle(self, event: dict[str, Any]) -> Events:
        """Convert one streamed event (its JSON; unknown kinds are ignored)."""
        kind = event.get("type")
        if kind == "response.output_item.added":
            return self.item_added(event["item"])
        if kind in ("response.output_text.delta", "response.refusal.delta"):
            return self._delta("text", event.get("delta") or "")
        if kind in ("response.reasoning_summary_text.delta", "response.reasoning_text.delta"):
            if kind.startswith("response.reasoning_summary") and not self.summary_parts:
                self.summary_parts = 1
            return self._delta("thinking", event.get("delta") or "")
        if kind == "response.reasoning_summary_part.added":
            return self.summary_part_added()
        if kind == "response.function_call_arguments.delta":
            return self._delta("tool", event.get("delta") or "")
        if kind == "response.function_call_arguments.done":
            return self._catch_up("tool", event.get("arguments") or "")
        if kind == "response.output_item.done":
            return self.item_done(event["item"])
        if kind == "response.created":
            self.builder.message.response_id = (event.get("response") or {}).get("id")
        elif kind in ("response.completed", "response.incomplete"):
            return self.completed(event.get("response") or {})
        elif kind == "response.failed":
            raise ResponseFailed(_failure(event.get("response") or {}))
        elif kind == "error":
            code, message = event.get("code"), event.get("message")
            raise ResponseFailed(f"Error Code {code}: {message}")
        return []

    def handle_body(self, body: Any) -> Events:
        """Convert a complete response object (a server that answered without streaming)."""
        return self.replay(json_body(body))

    def finish(self) -> StopReason | None:
        """The stop reason; a stream cut before `response.completed` raises."""
        if not self.finished:
            raise ConnectionError(_CUT)
        return self.stop

    def replay(self, response: dict[str, Any]) -> Events:
        """Convert a complete response object (a server that answered without streaming)."""
        failed = response.get("error") and not response.get("output")
        if failed or response.get("status") == "failed":
            raise ResponseFailed(_failure(response))
        events: Events = []
        for item in response.get("output") or []:
            events += self.item_added(item)
            events += self.item_done(item)
        return events + self.completed(response)

    # --- items ----------------------------------------------------------------------------

    def item_added(self, item: dict[str, Any]) -> Events:
        """Open the block for a reasoning, message or function-call item."""
        kind = _KINDS.get(item.get("type", ""))
        if kind is None:
            return []  # server-side tools and the like are the API's business
        events = self.close()
        builder = self.builder
        started: AssistantMessageEvent
        if kind == "thinking":
            index, started = builder.thinking_start()
        elif kind == "text":
            index, started = builder.text_start()
        else:
            call_id, item_id = item.get("call_id") or "", item.get("id")
            call_id = f"{call_id}|{item_id}" if item_id else call_id
            index, started = builder.tool_call_start(call_id, item.get("name") or "")
        self.open, self.pieces, self.summary_parts = (kind, index), [], 0
        events.append(started)
        if kind == "tool" and item.get("arguments"):
            events += self._delta("tool", item["arguments"])
        return events

    def summary_part_added(self) -> Events:
        """A new reasoning summary part: parts are separated by a blank line."""
        self.summary_parts += 1
        return self._delta("thinking", "\n\n") if self.summary_parts > 1 else []

    def item_done(self, item: dict[str, Any]) -> Events:
        """Close the item's block with its final text and signature."""
        kind = _KINDS.get(item.get("type", ""))
        if kind is None:
            return []
        events = self.item_added(item) if self.open is None or self.open[0] != kind else []
        events += self._catch_up(kind, _final_text(item))
        assert self.open is not None
        index = self.open[1]
        self.open = None
        if kind == "thinking":
            events.append(self.builder.thinking_end(index, json_text(item)))
        elif kind == "text":
            signature = text_signature(item.get("id") or "", item.get("phase"))
            events.append(self.builder.text_end(index, signature))
        else:
            events.append(self.builder.tool_call_end(index))
        return events

    def close(self) -> Events:
        """Close a block left open (the stream broke off, or an item never said done)."""
        if self.open is None:
            return []
        (kind, index), self.open = self.open, None
        if kind == "thinking":
            return [self.builder.thinking_end(index)]
        if kind == "text":
            return [self.builder.text_end(index)]
        return [self.builder.tool_call_end(index)]

    # --- the end --------------------------------------------------------------------------

    def completed(self, response: dict[str, Any]) -> Events:
        """Record usage, response id and stop reason from the final response object."""
        events = self.close()
        if response.get("id"):
            self.builder.message.response_id = response["id"]
        usage = response.get("usage") or {}
        cached = (usage.get("input_tokens_details") or {}).get("cached_tokens") or 0
        self.builder.set_usage(
            input=(usage.get("input_tokens") or 0) - cached,
            output=usage.get("output_tokens") or 0,
            cache_read=cached,
        )
        self.stop = _STATUS.get(response.get("status") or "", "stop")
        calls = any(isinstance(b, ToolCall) for b in self.builder.message.content)
        if self.stop == "stop" and calls:
            self.stop = "toolUse"
        if self.stop == "error":
            raise ResponseFailed(_failure(response))
        self.finished = True
        return events

    # --- internals ------------------------------------------------------------------------

    def _delta(self, kind: str, delta: str) -> Events:
        if self.open is None or self.open[0] != kind or not delta:
            return []
        self.pieces.append(delta)
        index = self.open[1]
        if kind == "thinking":
            return [self.builder.thinking_delta(index, delta)]
        if kind == "text":
            return [self.builder.text_delta(index, delta)]
        return [self.builder.tool_call_delta(index, delta)]

    def _catch_up(self, kind: str, final: str) -> Events:
        """Send what the final text has beyond what streamed (all of it when nothing did)."""
        streamed = "".join(self.pieces)
        if self.open is None or self.open[0] != kind or not final.startswith(streamed):
            return []
        return self._delta(kind, final[len(streamed) :])
