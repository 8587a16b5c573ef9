"""Recorded Gemini API and Vertex AI responses (tests/replays) replay through the plugin: the text,
thinking, tool calls, usage and stop reason read straight from each recording come out as pi's."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from google_run import collect, gemini_model, vertex_model

from pi_core.messages import TextContent, ThinkingContent, ToolCall
from pi_core.providers import classify_error, is_context_overflow
from pi_core.testing import FakeLLMServer, FakeResponse

REPLAYS = Path(__file__).parent / "replays"
STREAMS = [*sorted(REPLAYS.glob("*/*.sse")), REPLAYS / "gemini" / "llm-gemini__test_tools__0.json"]

if not sorted(REPLAYS.glob("*/*.sse")):
    raise RuntimeError(f"no recordings found in {REPLAYS}: the replay fixtures are missing")


def chunks_of(path: Path) -> list[dict[str, Any]]:
    """The recording's `GenerateContentResponse`s (SSE data, or the JSON array)."""
    text = path.read_text()
    if path.suffix == ".json":
        return list(json.loads(text))
    pieces = text.replace("\r\n", "\n").split("\n\n")
    return [json.loads(p[len("data: ") :]) for p in pieces if p.startswith("data: ")]


def expected(path: Path) -> dict[str, Any]:
    """What the recording says, read without the plugin."""
    text, thinking, calls, usage, finish = "", "", [], {}, None
    for chunk in chunks_of(path):
        candidate = (chunk.get("candidates") or [{}])[0]
        for part in (candidate.get("content") or {}).get("parts") or []:
            if "text" in part:
                if part.get("thought"):
                    thinking += part["text"]
                else:
                    text += part["text"]
            if "functionCall" in part:
                call = part["functionCall"]
                calls.append((call["name"], call.get("args") or {}, call.get("id"),
                              part.get("thoughtSignature")))  # fmt: skip
        usage = chunk.get("usageMetadata") or usage
        finish = candidate.get("finishReason") or finish
    return {"text": text, "thinking": thinking, "calls": calls, "usage": usage, "finish": finish}


@pytest.mark.parametrize("path", STREAMS, ids=lambda p: f"{p.parent.name}/{p.name}")
async def test_recorded_stream_replays(path: Path) -> None:
    want = expected(path)
    with FakeLLMServer() as server:
        server.queue(FakeResponse.replay(path))
        make = vertex_model if path.parent.name == "vertex" else gemini_model
        events, message = await collect(make(server.base_url))
        assert len(server.requests) == 1
    assert events[0].type == "start" and events[-1].type == "done", message.error_message
    content = message.content
    assert "".join(b.text for b in content if isinstance(b, TextContent)) == want["text"]
    thinking = "".join(b.thinking for b in content if isinstance(b, ThinkingContent))
    assert thinking == want["thinking"]
    calls = [b for b in content if isinstance(b, ToolCall)]
    assert [(c.name, c.arguments) for c in calls] == [(n, a) for n, a, _, _ in want["calls"]]
    for call, (name, _, given, signature) in zip(calls, want["calls"], strict=True):
        assert call.id == given if given else call.id.startswith(f"{name}_")
        assert call.thought_signature == signature
    assert len({c.id for c in calls}) == len(calls)
    usage, meta = message.usage, want["usage"]
    cached = meta.get("cachedContentTokenCount", 0)
    assert usage.input == meta.get("promptTokenCount", 0) - cached
    assert usage.output == meta.get("candidatesTokenCount", 0) + meta.get("thoughtsTokenCount", 0)
    assert usage.cache_read == cached
    stop = {"STOP": "stop", "MAX_TOKENS": "length"}[want["finish"]]
    assert message.stop_reason == ("toolUse" if calls else stop)
    # the deltas a client renders add up to the same text
    deltas = "".join(e.delta for e in events if e.type == "text_delta")
    assert deltas == want["text"]


async def test_a_thinking_stream_keeps_the_signature_of_its_text() -> None:
    path = REPLAYS / "gemini" / "pydantic-ai__test_google_model_thinking_part_iter__0.sse"
    signatures = [
        part["thoughtSignature"]
        for chunk in chunks_of(path)
        for part in chunk["candidates"][0]["content"].get("parts", [])
        if part.get("thoughtSignature")
    ]
    assert signatures, "the recording carries a thought signature"
    with FakeLLMServer() as server:
        server.queue(FakeResponse.replay(path))
        _, message = await collect(gemini_model(server.base_url, "gemini-2.5-pro"))
    found = [
        getattr(b, "text_signature", None) or getattr(b, "thinking_signature", None)
        for b in message.content
    ]
    assert signatures[-1] in found


async def test_a_safety_block_is_an_error_naming_the_reason() -> None:
    path = REPLAYS / "gemini" / "pydantic-ai__test_google_model_safety_settings__0.json"
    with FakeLLMServer() as server:
        server.queue(FakeResponse.replay(path))
        events, message = await collect(gemini_model(server.base_url, "gemini-1.5-flash"))
    assert events[-1].type == "error"
    assert message.stop_reason == "error"
    assert message.error_message == "The response ended with finishReason SAFETY"
    assert classify_error(message) == "fatal"


async def test_an_invalid_key_on_the_streaming_endpoint_is_a_fatal_error_with_the_body() -> None:
    path = REPLAYS / "gemini" / "mirascope__test_authentication_error_stream__0.json"
    with FakeLLMServer() as server:
        server.queue(FakeResponse.replay(path))
        _, message = await collect(gemini_model(server.base_url))
    assert message.stop_reason == "error"
    error = message.error_message or ""
    assert error.startswith("400 {")
    assert "API key not valid. Please pass a valid API key." in error
    assert classify_error(message) == "fatal"


async def test_a_quota_error_is_retryable_after_the_delay_google_asks_for() -> None:
    path = REPLAYS / "gemini" / "ruby_llm__real_error_429__0.json"
    with FakeLLMServer() as server:
        server.queue(FakeResponse.replay(path))
        _, message = await collect(gemini_model(server.base_url))
    error = message.error_message or ""
    assert error.startswith("429 {") and "RESOURCE_EXHAUSTED" in error
    assert error.endswith("(retry after 48 s)")  # the body's RetryInfo: "retryDelay": "48s"
    assert classify_error(message) == "retryable"


async def test_vertex_input_too_long_is_a_context_overflow() -> None:
    path = REPLAYS / "vertex" / "ruby_llm__context_length_exceeded__1.json"
    with FakeLLMServer() as server:
        server.queue(FakeResponse.replay(path))
        _, message = await collect(vertex_model(server.base_url))
    assert "The input token count (1250074) exceeds the maximum" in (message.error_message or "")
    assert is_context_overflow(message)
    assert classify_error(message) == "context_overflow"
