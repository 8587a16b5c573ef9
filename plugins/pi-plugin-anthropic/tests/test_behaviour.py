"""Errors, aborts, payload shape and lazy import of the Anthropic provider."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

from pi_plugin_anthropic.convert import build_payload
from pi_plugin_anthropic.stream import stream_messages

from pi_core.abort import AbortController
from pi_core.ai.errors import classify_error, retry_after_ms
from pi_core.ai.model import Model
from pi_core.ai.protocol import LLMContext, StreamOptions
from pi_core.messages import (
    AssistantMessage,
    ImageContent,
    TextContent,
    ThinkingContent,
    ToolCall,
    ToolResultMessage,
    UserMessage,
)
from pi_core.testing import FakeLLMServer, FakeResponse


def events_for(text_pieces: list[str]) -> list[dict[str, Any]]:
    start = {
        "type": "message_start",
        "message": {
            "id": "m",
            "type": "message",
            "role": "assistant",
            "model": "claude",
            "content": [],
            "stop_reason": None,
            "stop_sequence": None,
            "usage": {"input_tokens": 5, "output_tokens": 1},
        },
    }
    events = [
        start,
        {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
    ]
    for piece in text_pieces:
        events.append(
            {
                "type": "content_block_delta",
                "index": 0,
                "delta": {"type": "text_delta", "text": piece},
            }
        )
    events += [
        {"type": "content_block_stop", "index": 0},
        {
            "type": "message_delta",
            "delta": {"stop_reason": "end_turn"},
            "usage": {"output_tokens": 9},
        },
        {"type": "message_stop"},
    ]
    return events


CONTEXT = LLMContext(system_prompt="sys", messages=[UserMessage(content="hi")])


def model_at(server: FakeLLMServer) -> Model:
    return Model(
        id="claude", api="anthropic-messages", provider="anthropic", base_url=server.base_url
    )


async def run(server: FakeLLMServer, options: StreamOptions | None = None) -> list[Any]:
    options = options or StreamOptions(api_key="k", max_retries=0)
    return [e async for e in stream_messages(model_at(server), CONTEXT, options)]


async def test_errors_keep_status_and_classify() -> None:
    overloaded = {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}
    too_long = {
        "type": "error",
        "error": {
            "type": "invalid_request_error",
            "message": "prompt is too long: 213462 tokens > 200000 maximum",
        },
    }
    with FakeLLMServer() as server:
        server.queue(
            FakeResponse.json_body(overloaded, status=529),
            FakeResponse.json_body(too_long, status=400),
            FakeResponse.json_body(
                {"type": "error", "error": {"message": "slow down"}}, status=429
            ),
        )
        results = [(await run(server))[-1] for _ in range(3)]
    assert [r.type for r in results] == ["error"] * 3
    assert (
        results[0].error.error_message.startswith("529")
        and "overloaded" in results[0].error.error_message
    )
    assert [classify_error(r.error) for r in results] == [
        "retryable",
        "context_overflow",
        "retryable",
    ]


async def test_connection_cut_keeps_partial_text() -> None:
    with FakeLLMServer() as server:
        server.queue(
            FakeResponse.sse(
                events_for(["Hello ", "there ", "friend"]), named=True, cut_after_chunks=4
            )
        )
        final = (await run(server))[-1]
    assert final.type == "error"
    assert final.error.content[0].text == "Hello there "


async def test_abort_mid_stream_closes_it_and_keeps_partial() -> None:
    controller = AbortController()
    with FakeLLMServer() as server:
        server.queue(
            FakeResponse.sse(
                events_for([f"w{i} " for i in range(200)]), named=True, chunk_delay=0.02
            )
        )
        events = []
        async for event in stream_messages(
            model_at(server), CONTEXT, StreamOptions(api_key="k", signal=controller.signal)
        ):
            events.append(event)
            if event.type == "text_delta":  # the first delta: abort while the stream runs
                controller.abort()
    final = events[-1]
    assert final.type == "error" and final.error.stop_reason == "aborted"
    assert final.error.content[0].text.startswith("w0 ")
    assert len(final.error.content[0].text.split()) < 200  # the rest was never read


async def test_error_event_mid_stream_keeps_partial_text_and_is_retryable() -> None:
    overloaded = {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}
    events = [*events_for(["Hello "])[:3], overloaded]
    with FakeLLMServer() as server:
        server.queue(FakeResponse.sse(events, named=True))
        final = (await run(server))[-1]
    assert final.type == "error" and final.error.content[0].text == "Hello "
    assert json.loads(final.error.error_message) == overloaded
    assert classify_error(final.error) == "retryable"


async def test_stream_that_ends_before_message_stop_is_an_error() -> None:
    with FakeLLMServer() as server:  # a complete body that stops short of `message_stop`
        server.queue(FakeResponse.sse(events_for(["Hello ", "there"])[:4], named=True))
        final = (await run(server))[-1]
    assert final.type == "error" and final.error.content[0].text == "Hello there"
    assert final.error.error_message.startswith("Connection lost")
    assert classify_error(final.error) == "retryable"


async def test_json_message_to_a_streaming_request_becomes_the_same_events() -> None:
    message = {
        "id": "msg_1", "type": "message", "role": "assistant", "model": "claude",
        "content": [
            {"type": "thinking", "thinking": "Plan", "signature": "sig"},
            {"type": "text", "text": "Reading."},
            {"type": "tool_use", "id": "tu_1", "name": "read", "input": {"path": "a"}},
        ],
        "stop_reason": "tool_use", "stop_sequence": None,
        "usage": {"input_tokens": 12, "output_tokens": 5, "cache_read_input_tokens": 3},
    }  # fmt: skip
    with FakeLLMServer() as server:
        server.queue(FakeResponse.json_body(message), FakeResponse.json_body({"oops": 1}))
        events = await run(server)
        broken = (await run(server))[-1]
    assert [e.type for e in events] == [
        "start", "thinking_start", "thinking_delta", "thinking_end", "text_start", "text_delta",
        "text_end", "toolcall_start", "toolcall_delta", "toolcall_end", "done",
    ]  # fmt: skip
    done = events[-1].message
    assert done.content[0].thinking == "Plan" and done.content[0].thinking_signature == "sig"
    assert done.content[1].text == "Reading." and done.content[2].arguments == {"path": "a"}
    assert done.stop_reason == "toolUse" and done.response_id == "msg_1"
    assert (done.usage.input, done.usage.output, done.usage.cache_read) == (12, 5, 3)
    assert broken.type == "error" and "oops" in broken.error.error_message


async def test_headers_body_bytes_and_retry_after() -> None:
    limited = {"type": "error", "error": {"type": "rate_limit_error", "message": "slow down"}}
    with FakeLLMServer() as server:
        server.queue(
            FakeResponse.sse(events_for(["ok"]), named=True),
            FakeResponse.json_body(limited, status=429, headers={"retry-after": "12"}),
            FakeResponse.sse(events_for(["ok"]), named=True),
        )
        options = StreamOptions(api_key="sk-ant-api-1", headers={"X-Extra": "1"}, max_retries=0)
        done = (await run(server, options))[-1]
        limited_final = (await run(server, options))[-1]
        adaptive = model_at(server).model_copy(update={"id": "claude-opus-4-6"})
        oauth = StreamOptions(api_key="sk-ant-oat-2")
        [e async for e in stream_messages(adaptive, CONTEXT, oauth)]
        first, _, third = server.requests
    assert done.type == "done" and first.path == "/v1/messages"
    assert first.headers["x-api-key"] == "sk-ant-api-1" and "authorization" not in first.headers
    assert first.headers["anthropic-version"] == "2023-06-01"
    assert first.headers["anthropic-beta"] == "interleaved-thinking-2025-05-14"
    assert first.headers["content-type"] == "application/json"
    assert first.headers["x-extra"] == "1"
    assert not any(name.startswith("x-stainless") for name in first.headers)
    # the body the SDK sent: compact, UTF-8, top-level keys sorted
    assert (
        first.body
        == json.dumps(
            dict(sorted(first.json().items())), ensure_ascii=False, separators=(",", ":")
        ).encode()
    )
    assert list(first.json()) == ["max_tokens", "messages", "model", "stream", "system"]
    assert limited_final.error.error_message == (
        '429 {"type": "error", "error": {"type": "rate_limit_error", "message": "slow down"}}'
        " (retry after 12 s)"
    )
    assert retry_after_ms(limited_final.error) == 12_000
    assert classify_error(limited_final.error) == "retryable"
    assert third.headers["authorization"] == "Bearer sk-ant-oat-2"
    assert "x-api-key" not in third.headers
    assert third.headers["anthropic-beta"] == "claude-code-20250219,oauth-2025-04-20"
    assert third.headers["user-agent"] == "claude-cli/2.1.75"  # pi's Claude Code identity
    assert third.headers["x-app"] == "cli"
    mark = {"type": "ephemeral"}
    assert third.json()["system"] == [  # pi's Claude Code identity first, then the prompt
        {"type": "text", "text": "You are Claude Code, Anthropic's official CLI for Claude.",
         "cache_control": mark},
        {"type": "text", "text": "sys", "cache_control": mark},
    ]  # fmt: skip
    assert first.json()["system"] == [{"type": "text", "text": "sys", "cache_control": mark}]


def test_payload_thinking_signatures_images_tool_results_and_caching() -> None:
    previous = AssistantMessage(
        api="anthropic-messages",
        provider="anthropic",
        model="claude",
        content=[
            ThinkingContent(thinking="hmm", thinking_signature="sig"),
            ThinkingContent(thinking="", thinking_signature="opaque", redacted=True),
            ToolCall(id="t1", name="read", arguments={"path": "a"}),
            ToolCall(id="t2", name="read", arguments={"path": "b"}),
        ],
    )
    context = LLMContext(
        system_prompt="be brief",
        messages=[
            UserMessage(
                content=[TextContent(text="look"), ImageContent(data="AAAA", mime_type="image/png")]
            ),
            previous,
            ToolResultMessage(tool_call_id="t1", tool_name="read", content=[TextContent(text="A")]),
            ToolResultMessage(
                tool_call_id="t2", tool_name="read", content=[TextContent(text="B")], is_error=True
            ),
        ],
    )
    model = Model(
        id="claude", api="anthropic-messages", provider="anthropic", reasoning=True,
        max_tokens=8000, input=["text", "image"],
    )  # fmt: skip
    payload = build_payload(model, context, StreamOptions(reasoning="high"))

    assert payload["system"] == [
        {"type": "text", "text": "be brief", "cache_control": {"type": "ephemeral"}}
    ]
    user, assistant, results = payload["messages"]
    assert user["content"][1] == {
        "type": "image",
        "source": {"type": "base64", "media_type": "image/png", "data": "AAAA"},
    }
    assert assistant["content"][0] == {"type": "thinking", "thinking": "hmm", "signature": "sig"}
    assert assistant["content"][1] == {"type": "redacted_thinking", "data": "opaque"}
    assert [b["tool_use_id"] for b in results["content"]] == ["t1", "t2"]
    assert results["content"][1]["is_error"] is True
    assert results["content"][-1]["cache_control"] == {"type": "ephemeral"}
    assert "cache_control" not in user["content"][-1]
    assert payload["thinking"] == {
        "type": "enabled",
        "budget_tokens": 6976,
        "display": "summarized",
    }
    assert payload["max_tokens"] == 8000  # the model's limit caps budget + answer


def test_thinking_levels_map_to_budgets_or_adaptive_effort() -> None:
    context = LLMContext(messages=[UserMessage(content="hi")])
    older = Model(
        id="claude-sonnet-4-5",
        api="anthropic-messages",
        provider="anthropic",
        reasoning=True,
        max_tokens=64_000,
    )
    budgets = {
        level: build_payload(older, context, StreamOptions(reasoning=level))
        for level in ("minimal", "low", "medium", "high", "xhigh")
    }
    assert [p["thinking"]["budget_tokens"] for p in budgets.values()] == [
        1024,
        2048,
        8192,
        16384,
        16384,
    ]
    assert budgets["low"]["max_tokens"] == 32_000 + 2048
    custom = build_payload(
        older, context, StreamOptions(reasoning="low", thinking_budgets={"low": 5000})
    )
    assert custom["thinking"]["budget_tokens"] == 5000

    adaptive = Model(
        id="claude-opus-4-6",
        api="anthropic-messages",
        provider="anthropic",
        reasoning=True,
        max_tokens=128_000,
    )
    payload = build_payload(adaptive, context, StreamOptions(reasoning="minimal"))
    assert payload["thinking"]["type"] == "adaptive"
    assert payload["output_config"] == {"effort": "low"}

    off = build_payload(older, context, StreamOptions(temperature=0.2))
    assert off["thinking"] == {"type": "disabled"} and off["temperature"] == 0.2
    thinking = build_payload(older, context, StreamOptions(reasoning="low", temperature=0.2))
    assert "temperature" not in thinking  # the API refuses temperature with thinking


def test_importing_the_plugin_imports_no_http_client() -> None:
    probe = (
        "import sys, pi_plugin_anthropic; print(sorted({'httpx', 'anthropic'} & set(sys.modules)))"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert result.stdout.strip() == "[]", result.stderr
