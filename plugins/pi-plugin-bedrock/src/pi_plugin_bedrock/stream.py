"""The `bedrock-converse-stream` stream: ConverseStream over httpx, as pi's events."""

from __future__ import annotations

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
    WireAPI,
    WireRequest,
    WireTranslator,
    encode_body,
    run_stream,
)
from pi_plugin_bedrock.auth import authenticate
from pi_plugin_bedrock.convert import build_payload
from pi_plugin_bedrock.endpoint import converse_path, resolve_endpoint
from pi_plugin_bedrock.errors import describe_error
from pi_plugin_bedrock.eventstream import converse_events

_CUT = "Connection lost: the stream ended before messageStop"

_STOP: dict[str, StopReason] = {
    "end_turn": "stop",
    "stop_sequence": "stop",
    "max_tokens": "length",
    "model_context_window_exceeded": "length",
    "tool_use": "toolUse",
}


class UnknownStop(Exception):
    """The model stopped for a reason pi counts as an error (guardrails, content filter…)."""


class ConverseEvents(WireTranslator[dict[str, Any]]):
    """ConverseStream events as pi's: text, reasoning (signed or redacted) and tool-use blocks."""

    def __init__(self, builder: AssistantMessageBuilder) -> None:
        super().__init__(builder)
        self.open: dict[int, tuple[str, int]] = {}
        self.signatures: dict[int, str] = {}
        self.redacted: dict[int, str] = {}
        self.reason: str | None = None

    def handle(self, event: dict[str, Any]) -> list[AssistantMessageEvent]:
        """Translate one event (`{event-type: payload}`)."""
        if "contentBlockDelta" in event:
            return self._delta(event["contentBlockDelta"])
        if "contentBlockStart" in event:
            return self._start(event["contentBlockStart"])
        if "contentBlockStop" in event:
            return self._stop(event["contentBlockStop"].get("contentBlockIndex", 0))
        if "messageStop" in event:
            self.reason = event["messageStop"].get("stopReason") or ""
        elif "metadata" in event:
            self._usage(event["metadata"].get("usage"))
        return []

    def _start(self, event: dict[str, Any]) -> list[AssistantMessageEvent]:
        tool = (event.get("start") or {}).get("toolUse")
        if not tool:
            return []
        index, started = self.builder.tool_call_start(
            tool.get("toolUseId", ""), tool.get("name", "")
        )
        self.open[event.get("contentBlockIndex", 0)] = ("tool", index)
        return [started]

    def _open(
        self, api_index: int, kind: str, redacted: bool = False
    ) -> tuple[int, list[AssistantMessageEvent]]:
        """Our block for the API's index, opened now if it is new (text and reasoning blocks
        have no start event)."""
        current = self.open.get(api_index)
        if current is not None:
            return (current[1], []) if current[0] == kind else (-1, [])
        started: AssistantMessageEvent
        if kind == "text":
            index, started = self.builder.text_start()
        else:
            index, started = self.builder.thinking_start(redacted=redacted)
        self.open[api_index] = (kind, index)
        return index, [started]

    def _delta(self, event: dict[str, Any]) -> list[AssistantMessageEvent]:
        api_index = event.get("contentBlockIndex", 0)
        delta = event.get("delta") or {}
        if "text" in delta:
            index, events = self._open(api_index, "text")
            if index >= 0:
                events.append(self.builder.text_delta(index, delta["text"]))
            return events
        if "toolUse" in delta:
            kind, index = self.open.get(api_index, ("", -1))
            if kind != "tool":
                return []
            return [self.builder.tool_call_delta(index, delta["toolUse"].get("input") or "")]
        reasoning = delta.get("reasoningContent")
        if reasoning is None:
            return []
        redacted = bool(reasoning.get("redactedContent")) and not reasoning.get("text")
        index, events = self._open(api_index, "thinking", redacted)
        if index < 0:
            return events
        if reasoning.get("text"):
            events.append(self.builder.thinking_delta(index, reasoning["text"]))
        if reasoning.get("signature"):
            self.signatures[index] = self.signatures.get(index, "") + reasoning["signature"]
        if reasoning.get("redactedContent"):
            self.redacted[index] = self.redacted.get(index, "") + reasoning["redactedContent"]
        return events

    def _stop(self, api_index: int) -> list[AssistantMessageEvent]:
        kind, index = self.open.pop(api_index, ("", -1))
        if kind == "text":
            return [self.builder.text_end(index)]
        if kind == "tool":
            return [self.builder.tool_call_end(index)]
        if kind == "thinking":
            signature = self.redacted.get(index) or self.signatures.get(index)
            return [self.builder.thinking_end(index, signature)]
        return []

    def _usage(self, usage: dict[str, Any] | None) -> None:
        if not usage:
            return
        self.builder.set_usage(
            input=usage.get("inputTokens") or 0,
            output=usage.get("outputTokens") or 0,
            cache_read=usage.get("cacheReadInputTokens") or 0,
            cache_write=usage.get("cacheWriteInputTokens") or 0,
        )

    def close(self) -> list[AssistantMessageEvent]:
        """Close every block still open."""
        events: list[AssistantMessageEvent] = []
        for api_index in list(self.open):
            events += self._stop(api_index)
        return events

    def finish(self) -> StopReason | None:
        """The stop reason; a stream cut before `messageStop` raises, as does a reason pi
        counts as an error."""
        if self.reason is None:
            raise ConnectionError(_CUT)
        stop = _STOP.get(self.reason)
        if stop is None:
            raise UnknownStop("An unknown error occurred")
        return stop


async def _request(
    model: Model, options: StreamOptions, payload: dict[str, Any], parts: EncodedParts
) -> WireRequest:
    """Sign (or add the bearer token to) the body pi would send, at the endpoint pi would use."""
    model_id = str(payload.get("modelId") or model.id)
    body_fields = {key: value for key, value in payload.items() if key != "modelId"}
    body = encode_body(body_fields)  # compact, non-ASCII as is: the AWS SDK's JSON
    headers = {"content-type": "application/json"}
    for source in (model.headers, options.headers):
        for name, value in (source or {}).items():
            headers[name.lower()] = value
    path = converse_path(model_id)
    signing = authenticate(resolve_endpoint(model.base_url), path, body, headers)
    # finding credentials may read files or ask a metadata service: an abort ends the wait
    base_url = await (options.signal.race(signing) if options.signal else signing)
    return WireRequest(base_url, path, body, headers)


CONVERSE: WireAPI[dict[str, Any]] = WireAPI(
    payload=build_payload,
    request=_request,
    translator=ConverseEvents,
    decode=converse_events,
    describe_error=describe_error,
)
"""ConverseStream on the shared stream skeleton."""


def stream_converse(
    model: Model, context: LLMContext, options: StreamOptions
) -> AsyncIterator[AssistantMessageEvent]:
    """Stream one ConverseStream response."""
    return run_stream(CONVERSE, model, context, options)
