"""Gemini's streamed `GenerateContentResponse` chunks as pi's events."""

from __future__ import annotations

import itertools
import json
import time
from typing import Any

from pi_core.messages import StopReason, ToolCall
from pi_core.providers import AssistantMessageBuilder, AssistantMessageEvent, WireTranslator

_STOP: dict[str, StopReason] = {"STOP": "stop", "MAX_TOKENS": "length"}
"""Any other finish reason (SAFETY, RECITATION, MALFORMED_FUNCTION_CALL…) is an error, as in pi."""

_CUT = "Connection lost: the stream ended before a finishReason"

_call_numbers = itertools.count(1)


class GeminiError(Exception):
    """The API reported an error inside the stream, or ended the response with a failure."""


def _fresh_id(name: str) -> str:
    """An id for a function call that came without one (or with a duplicate), made as pi makes
    it: the name, the time in milliseconds and a counter."""
    return f"{name}_{int(time.time() * 1000)}_{next(_call_numbers)}"


class GeminiEvents(WireTranslator[Any]):
    """Text and thought parts become text and thinking blocks (a change of kind closes the open
    block); each function call is one complete tool call; usage and finishReason are recorded."""

    def __init__(self, builder: AssistantMessageBuilder) -> None:
        super().__init__(builder)
        self.open: tuple[str, int] | None = None
        self.signature: str | None = None
        self.finish_reason: str | None = None
        self.finish_message: str | None = None
        self.blocked: str | None = None

    def handle(self, event: Any) -> list[AssistantMessageEvent]:
        """Translate one chunk; an `error` object raises."""
        if not isinstance(event, dict):
            return []
        if "error" in event:
            raise GeminiError(json.dumps(event, ensure_ascii=False))
        message = self.builder.message
        if not message.response_id and event.get("responseId"):
            message.response_id = event["responseId"]
        out: list[AssistantMessageEvent] = []
        candidates = event.get("candidates") or []
        candidate = candidates[0] if candidates else {}
        for part in (candidate.get("content") or {}).get("parts") or []:
            if part.get("text") is not None:
                out += self._text(part)
            if part.get("functionCall"):
                out += self.close()
                out += self._call(part["functionCall"], part.get("thoughtSignature"))
        if candidate.get("finishReason"):
            self.finish_reason = candidate["finishReason"]
            self.finish_message = candidate.get("finishMessage")
        feedback = event.get("promptFeedback") or {}
        if feedback.get("blockReason"):
            self.blocked = feedback["blockReason"]
        usage = event.get("usageMetadata")
        if usage:
            cached = usage.get("cachedContentTokenCount") or 0
            self.builder.set_usage(
                input=(usage.get("promptTokenCount") or 0) - cached,
                output=(usage.get("candidatesTokenCount") or 0)
                + (usage.get("thoughtsTokenCount") or 0),
                cache_read=cached,
                cache_write=0,
            )
        return out

    def _text(self, part: dict[str, Any]) -> list[AssistantMessageEvent]:
        kind = "thinking" if part.get("thought") is True else "text"
        out: list[AssistantMessageEvent] = []
        if self.open is None or self.open[0] != kind:
            out += self.close()
            if kind == "thinking":
                index, thinking = self.builder.thinking_start()
                out.append(thinking)
            else:
                index, text = self.builder.text_start()
                out.append(text)
            self.open = (kind, index)
        index = self.open[1]
        signature = part.get("thoughtSignature")
        if isinstance(signature, str) and signature:  # later pieces may leave it out
            self.signature = signature
        if kind == "thinking":
            out.append(self.builder.thinking_delta(index, part["text"]))
        else:
            out.append(self.builder.text_delta(index, part["text"]))
        return out

    def _call(self, call: dict[str, Any], signature: str | None) -> list[AssistantMessageEvent]:
        name = call.get("name") or ""
        given = call.get("id")
        taken = any(isinstance(b, ToolCall) and b.id == given for b in self.builder.message.content)
        call_id = given if given and not taken else _fresh_id(name)
        arguments = call.get("args") or {}
        index, started = self.builder.tool_call_start(call_id, name)
        block = self.builder.message.content[index]
        if signature and isinstance(block, ToolCall):
            block.thought_signature = signature
        # compact, as JavaScript's JSON.stringify writes it in pi's delta
        text = json.dumps(arguments, ensure_ascii=False, separators=(",", ":"))
        delta = self.builder.tool_call_delta(index, text)
        return [started, delta, self.builder.tool_call_end(index, arguments)]

    def handle_body(self, body: Any) -> list[AssistantMessageEvent]:
        """A whole response, or the JSON array the endpoint streams without `alt=sse`."""
        chunks = body if isinstance(body, list) else [body]
        return [out for chunk in chunks for out in self.handle(chunk)]

    def close(self) -> list[AssistantMessageEvent]:
        """Close the open text or thinking block, with its thought signature."""
        if self.open is None:
            return []
        (kind, index), self.open = self.open, None
        signature, self.signature = self.signature, None
        if kind == "thinking":
            return [self.builder.thinking_end(index, signature)]
        return [self.builder.text_end(index, signature)]

    def finish(self) -> StopReason | None:
        """The stop reason (toolUse whenever the response called tools); a blocked prompt or a
        failure finishReason raises, and so does a stream that never gave a finishReason."""
        if self.blocked and self.finish_reason is None:
            raise GeminiError(f"The prompt was blocked (blockReason: {self.blocked})")
        if self.finish_reason is None:
            raise ConnectionError(_CUT)
        if any(isinstance(b, ToolCall) for b in self.builder.message.content):
            return "toolUse"  # whatever the finish reason, as pi decides
        stop = _STOP.get(self.finish_reason)
        if stop is None:
            detail = f": {self.finish_message}" if self.finish_message else ""
            raise GeminiError(f"The response ended with finishReason {self.finish_reason}{detail}")
        return stop
