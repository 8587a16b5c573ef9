"""Mistral's streamed chat chunks as pi's events, in pi's order.

As pi reads them: text and thinking alternate as blocks (a new kind closes the open one, and a
chunk's `content` may be a string or a list of `text` / `thinking` parts); a tool call closes the
open block and arrives whole or in pieces (keyed by id and index); every tool call ends after the
stream. Like pi, an empty first `content: ""` opens an empty text block.
"""

from __future__ import annotations

from typing import Any

from pi_core.messages import StopReason
from pi_core.providers import AssistantMessageBuilder, AssistantMessageEvent, WireTranslator
from pi_core.providers import json_text as _json
from pi_plugin_mistral.convert import clean
from pi_plugin_mistral.ids import derive_id

DONE: dict[str, Any] = {"object": "[DONE]"}
"""What the decoder yields for the stream's `[DONE]`."""

_FINISH: dict[str, StopReason] = {
    "stop": "stop",
    "length": "length",
    "model_length": "length",
    "tool_calls": "toolUse",
    "error": "error",
}
_CUT = "Connection lost: the stream ended without a finish reason or [DONE]"


class StreamFailed(Exception):
    """The API reported an error inside the stream, or finished with `finish_reason: error`."""


class MistralEvents(WireTranslator[dict[str, Any]]):
    """One response's chunks, through the builder."""

    def __init__(self, builder: AssistantMessageBuilder) -> None:
        super().__init__(builder)
        self.open: tuple[str, int] | None = None  # the open text or thinking block
        self.tools: dict[str, int] = {}  # `id:index` → content index, in arrival order
        self.stop: StopReason | None = None
        self.complete = False
        self.read_all = False  # the stream was read to its end (`finish` was reached)

    def handle(self, chunk: dict[str, Any]) -> list[AssistantMessageEvent]:
        """Translate one chunk: its id, usage, finish reason, content and tool calls."""
        if chunk is DONE:
            self.complete = True
            return []
        _raise_error(chunk)
        message = self.builder.message
        if message.response_id is None and chunk.get("id"):
            message.response_id = chunk["id"]
        usage = chunk.get("usage")
        if usage:
            self.builder.set_usage(
                input=usage.get("prompt_tokens") or 0,
                output=usage.get("completion_tokens") or 0,
                cache_read=0,
                cache_write=0,
            )
        choices = chunk.get("choices") or []
        if not choices:
            return []
        choice = choices[0]
        finish = choice.get("finish_reason")
        if finish:
            self.stop = _FINISH.get(finish, "stop")
        delta = choice.get("delta") or {}
        events: list[AssistantMessageEvent] = []
        content = delta.get("content")
        if content is not None:
            for item in [content] if isinstance(content, str) else content:
                events += self._content(item)
        for call in delta.get("tool_calls") or []:
            events += self._tool_call(call)
        return events

    def _content(self, item: Any) -> list[AssistantMessageEvent]:
        if isinstance(item, str):
            return self._piece("text", clean(item))
        if not isinstance(item, dict):
            return []
        if item.get("type") == "thinking":
            parts = item.get("thinking") or []
            text = "".join(p.get("text") or "" for p in parts if isinstance(p, dict))
            return self._piece("thinking", clean(text)) if text else []
        if item.get("type") == "text":
            return self._piece("text", clean(item.get("text") or ""))
        return []

    def _piece(self, kind: str, text: str) -> list[AssistantMessageEvent]:
        builder = self.builder
        events: list[AssistantMessageEvent] = []
        if self.open is None or self.open[0] != kind:
            events += self.close_open()
            index, started = builder.text_start() if kind == "text" else builder.thinking_start()
            self.open = (kind, index)
            events.append(started)
        index = self.open[1]
        delta = builder.text_delta if kind == "text" else builder.thinking_delta
        events.append(delta(index, text))
        return events

    def close_open(self) -> list[AssistantMessageEvent]:
        """Close the open text or thinking block, if any."""
        if self.open is None:
            return []
        (kind, index), self.open = self.open, None
        if kind == "text":
            return [self.builder.text_end(index)]
        return [self.builder.thinking_end(index)]

    def _tool_call(self, call: dict[str, Any]) -> list[AssistantMessageEvent]:
        events = self.close_open()
        position = call.get("index") or 0
        given = call.get("id")
        call_id = given if given and given != "null" else derive_id(f"toolcall:{position}")
        key = f"{call_id}:{position}"
        function = call.get("function") or {}
        index = self.tools.get(key)
        if index is None:
            index, started = self.builder.tool_call_start(call_id, function.get("name") or "")
            self.tools[key] = index
            events.append(started)
        arguments = function.get("arguments")
        piece = arguments if isinstance(arguments, str) else _json(arguments or {})
        events.append(self.builder.tool_call_delta(index, piece))
        return events

    def handle_body(self, body: Any) -> list[AssistantMessageEvent]:
        """Translate a whole `chat.completion` a server sent instead of a stream."""
        if not isinstance(body, dict):
            raise StreamFailed(f"Unexpected response: {body!r:.200}")
        _raise_error(body)
        self.complete = True
        choices = []
        for choice in body.get("choices") or []:
            delta = dict(choice.get("message") or {})
            calls = delta.get("tool_calls") or []
            delta["tool_calls"] = [{**call, "index": i} for i, call in enumerate(calls)]
            choices.append({"delta": delta, "finish_reason": choice.get("finish_reason")})
        return self.handle({**body, "choices": choices})

    def close(self) -> list[AssistantMessageEvent]:
        """Close the open block, then every tool call in the order they came; when reading the
        stream failed (an error in it, a broken connection, an abort) the blocks are completed
        without events, as pi sends none then."""
        events = self.close_open()
        for index in self.tools.values():
            events.append(self.builder.tool_call_end(index))
        self.tools = {}
        return events if self.read_all else []

    def finish(self) -> StopReason | None:
        """The stop reason; a stream cut before any finish reason or `[DONE]` raises."""
        self.read_all = True
        if not self.complete and self.stop is None:
            raise ConnectionError(_CUT)
        if self.stop == "error":
            raise StreamFailed("Mistral ended the response with finish_reason: error")
        return self.stop or "stop"


def _raise_error(chunk: dict[str, Any]) -> None:
    """An error object in the stream (`{"object": "error", …}` or `{"error": …}`) ends it."""
    error = chunk.get("error")
    if chunk.get("object") == "error":
        error = chunk
    if not error:
        return
    message = error.get("message") if isinstance(error, dict) else error
    detail = message if isinstance(message, str) and message else _json(error)
    raise StreamFailed(f"Mistral stream error: {detail}")
