"""Errors, aborts, payload shape and lazy import of the Chat Completions provider."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from typing import Any

from pi_plugin_openai.completions import stream_completions
from pi_plugin_openai.convert import build_payload

from pi_core.abort import AbortController
from pi_core.ai.errors import classify_error, retry_after_ms
from pi_core.ai.model import Model
from pi_core.ai.protocol import LLMContext, StreamOptions
from pi_core.messages import (
    AssistantMessage,
    ImageContent,
    TextContent,
    ToolCall,
    ToolResultMessage,
    UserMessage,
)
from pi_core.testing import FakeLLMServer, FakeResponse


def chunk(content: str | None = None, finish: str | None = None, **delta: Any) -> dict[str, Any]:
    if content is not None:
        delta["content"] = content
    return {"id": "x", "object": "chat.completion.chunk", "created": 1, "model": "m",
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}  # fmt: skip


def model_at(server: FakeLLMServer | None = None, **fields: Any) -> Model:
    if server is not None:
        fields.setdefault("base_url", f"{server.base_url}/v1")
    return Model(id="m", api="openai-completions", provider="p", **fields)


async def run(model: Model, options: StreamOptions | None = None) -> list[Any]:
    context = LLMContext(system_prompt="sys", messages=[UserMessage(content="hi")])
    return [
        e
        async for e in stream_completions(
            model, context, options or StreamOptions(api_key="k", max_retries=0)
        )
    ]


async def test_error_statuses_keep_the_status_and_classify() -> None:
    with FakeLLMServer() as server:
        overflow = "Your input exceeds the context window of this model"
        server.queue(
            FakeResponse.json_body({"error": {"message": "Rate limit reached"}}, status=429),
            FakeResponse.json_body({"error": {"message": overflow}}, status=400),
            FakeResponse.json_body({"error": {"message": "bad key"}}, status=401),
        )  # fmt: skip
        model = model_at(server)
        kinds = []
        for _ in range(3):
            final = (await run(model))[-1]
            assert final.type == "error"
            kinds.append((final.error.error_message.split()[0], classify_error(final.error)))
    assert kinds == [("429", "retryable"), ("400", "context_overflow"), ("401", "fatal")]


async def test_connection_cut_mid_stream_keeps_partial_text() -> None:
    with FakeLLMServer() as server:
        server.queue(
            FakeResponse.sse([chunk("Hello "), chunk("wor"), chunk("ld")], cut_after_chunks=2)
        )
        final = (await run(model_at(server)))[-1]
    assert final.type == "error" and final.error.content[0].text == "Hello wor"
    assert classify_error(final.error) == "retryable"


async def test_stream_that_ends_without_finish_or_done_is_an_error() -> None:
    with FakeLLMServer() as server:  # the body is complete, but the answer is not
        server.queue(FakeResponse.sse([chunk("Hello "), chunk("wor")]))
        final = (await run(model_at(server)))[-1]
    assert final.type == "error" and final.error.content[0].text == "Hello wor"
    assert final.error.error_message.startswith("Connection lost")
    assert classify_error(final.error) == "retryable"


async def test_abort_mid_stream_closes_it_and_keeps_partial() -> None:
    pieces = [chunk(f"w{i} ") for i in range(200)]
    controller = AbortController()
    with FakeLLMServer() as server:
        server.queue(FakeResponse.sse(pieces, chunk_delay=0.02))
        context = LLMContext(messages=[UserMessage(content="hi")])
        options = StreamOptions(api_key="k", signal=controller.signal)
        events = []
        async for event in stream_completions(model_at(server), context, options):
            events.append(event)
            if event.type == "text_delta":  # the first delta: abort while the stream runs
                controller.abort()
    final = events[-1]
    assert final.type == "error" and final.error.stop_reason == "aborted"
    assert final.error.content[0].text.startswith("w0 ")
    assert len(final.error.content[0].text.split()) < 200  # the rest was never read


async def test_reasoning_content_becomes_thinking_and_tool_calls_stream_in_pieces() -> None:
    call = {
        "index": 0,
        "id": "c1",
        "type": "function",
        "function": {"name": "read", "arguments": '{"pa'},
    }
    more = {"index": 0, "function": {"arguments": 'th": "a.txt"}'}}
    with FakeLLMServer() as server:
        server.queue(FakeResponse.sse([
            chunk(reasoning_content="Let me think"), chunk("Reading."), chunk(tool_calls=[call]),
            chunk(tool_calls=[more]), chunk(finish="tool_calls"), "[DONE]",
        ]))  # fmt: skip
        events = await run(model_at(server))
    message = events[-1].message
    assert [b.type for b in message.content] == ["thinking", "text", "toolCall"]
    assert message.content[0].thinking == "Let me think"
    assert message.content[2].arguments == {"path": "a.txt"} and message.stop_reason == "toolUse"


def test_payload_honours_compat_flags_images_and_tool_results() -> None:
    context = LLMContext(
        system_prompt="be brief",
        messages=[
            UserMessage(
                content=[TextContent(text="look"), ImageContent(data="AAAA", mime_type="image/png")]
            ),
            AssistantMessage(content=[ToolCall(id="t1", name="read", arguments={"path": "x"})]),
            ToolResultMessage(tool_call_id="t1", tool_name="read", content=[TextContent(text="X")]),
        ],
    )  # fmt: skip
    plain = Model(
        id="m", api="openai-completions", provider="p", reasoning=True, input=["text", "image"]
    )
    payload = build_payload(plain, context, StreamOptions(max_tokens=100, reasoning="high"))
    assert payload["messages"][0] == {"role": "developer", "content": "be brief"}
    assert payload["messages"][1]["content"][1] == {
        "type": "image_url",
        "image_url": {"url": "data:image/png;base64,AAAA"},
    }
    assert payload["messages"][2]["tool_calls"][0]["function"] == {
        "name": "read",
        "arguments": '{"path":"x"}',  # as JSON.stringify writes it
    }
    assert payload["messages"][3] == {"role": "tool", "tool_call_id": "t1", "content": "X"}
    assert payload["max_completion_tokens"] == 100 and payload["reasoning_effort"] == "high"
    assert payload["stream_options"] == {"include_usage": True}

    local = plain.model_copy(update={"compat": {
        "supportsDeveloperRole": False, "maxTokensField": "max_tokens",
        "supportsUsageInStreaming": False, "supportsReasoningEffort": False,
        "requiresToolResultName": True,
    }})  # fmt: skip
    payload = build_payload(local, context, StreamOptions(max_tokens=100, reasoning="high"))
    assert payload["messages"][0]["role"] == "system"
    assert payload["max_tokens"] == 100 and "max_completion_tokens" not in payload
    assert "stream_options" not in payload and "reasoning_effort" not in payload
    assert payload["messages"][3]["name"] == "read"


def test_importing_the_plugin_imports_no_http_client() -> None:
    probe = (
        "import sys, pi_plugin_openai; print([m for m in ('httpx', 'openai') if m in sys.modules])"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert result.stdout.strip() == "[]", result.stderr


async def test_headers_and_body_bytes() -> None:
    with FakeLLMServer() as server:
        server.queue(FakeResponse.sse([chunk("ok", finish="stop"), "[DONE]"]))
        model = model_at(server, headers={"X-Team": "a", "User-Agent": "mine"})
        options = StreamOptions(api_key="sk-1", headers={"x-team": "b"})
        context = LLMContext(system_prompt="é ✓", messages=[UserMessage(content="hi")])
        final = [e async for e in stream_completions(model, context, options)][-1]
        request = server.requests[0]
    assert final.type == "done"
    assert request.path == "/v1/chat/completions"
    headers = request.headers
    assert headers["authorization"] == "Bearer sk-1"
    assert headers["content-type"] == "application/json"
    assert headers["user-agent"] == "mine" and headers["x-team"] == "b"  # later sources win
    assert not any(name.startswith("x-stainless") for name in headers)
    # the body the SDK sent: compact, UTF-8, `model`, `stream`, `messages` first, the rest sorted
    assert request.body == json.dumps(
        {"model": "m", "stream": True,
         "messages": [{"role": "system", "content": "é ✓"}, {"role": "user", "content": "hi"}],
         "max_completion_tokens": 16384, "store": False,
         "stream_options": {"include_usage": True}},
        ensure_ascii=False, separators=(",", ":"),
    ).encode()  # fmt: skip


async def test_retry_after_is_handed_on_when_the_transport_may_not_retry() -> None:
    limited = {"error": {"message": "Rate limit reached"}}
    with FakeLLMServer() as server:
        server.queue(
            FakeResponse.json_body(limited, status=429, headers={"Retry-After": "7"}),
            FakeResponse.json_body(
                limited, status=429, headers={"retry-after-ms": "1500", "retry-after": "9"}
            ),
            FakeResponse.json_body({"error": {"message": "boom"}}, status=500),
        )
        finals = [(await run(model_at(server)))[-1] for _ in range(3)]
        requests = len(server.requests)
    messages = [f.error.error_message for f in finals]
    assert messages == [
        "429 Rate limit reached (retry after 7 s)",
        "429 Rate limit reached (retry after 1.5 s)",
        "500 boom",
    ]
    assert [retry_after_ms(f.error) for f in finals] == [7000, 1500, None]
    assert requests == 3  # maxRetries 0: one request per call, the session retries


async def test_errors_without_a_json_body_and_unreachable_servers() -> None:
    closed = socket.socket()
    closed.bind(("127.0.0.1", 0))
    port = closed.getsockname()[1]
    closed.close()  # nothing listens there now
    with FakeLLMServer() as server:
        server.queue(
            FakeResponse(status=502, content_type="text/html", chunks=[b"<h1>Bad gateway</h1>"]),
            FakeResponse(status=413, content_type="text/plain", chunks=[]),
        )
        html, empty = [(await run(model_at(server)))[-1] for _ in range(2)]
    refused = (await run(model_at(base_url=f"http://127.0.0.1:{port}/v1")))[-1]
    assert html.error.error_message == "502 <h1>Bad gateway</h1>"
    assert empty.error.error_message == "413 status code (no body)"
    assert refused.error.error_message.startswith("Connection error")
    assert [classify_error(f.error) for f in (html, empty, refused)] == [
        "retryable", "context_overflow", "retryable"
    ]  # fmt: skip
