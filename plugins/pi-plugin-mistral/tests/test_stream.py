"""The Mistral stream against the loopback fake: errors, overflow, a cut or failing stream,
abort, headers, and the requests of a conversation (thinking, tool calls, images)."""

from __future__ import annotations

import json

from mistral_fake import chunk, mistral_stream
from mistral_run import catalog_model, collect
from pi_plugin_mistral.convert import build_payload
from pi_plugin_mistral.stream import stream_mistral

from pi_core.abort import AbortController
from pi_core.messages import (
    AssistantMessage,
    ImageContent,
    TextContent,
    ThinkingContent,
    ToolCall,
    ToolResultMessage,
    UserMessage,
)
from pi_core.providers import (
    LLMContext,
    StreamDone,
    StreamError,
    StreamOptions,
    ToolSpec,
    classify_error,
    is_context_overflow,
)
from pi_core.testing import FakeLLMServer, FakeResponse

HI = LLMContext(messages=[UserMessage(content="hi")])
PNG = "iVBORw0KGgo="


async def test_rate_limit_names_status_body_and_delay_and_is_sent_once() -> None:
    body = {"object": "error", "message": "Requests rate limit exceeded", "type": "rate_limited"}
    with FakeLLMServer() as server:
        server.queue(FakeResponse.json_body(body, status=429, headers={"Retry-After": "20"}))
        server.queue(mistral_stream("never asked for"))
        events = await collect(catalog_model("mistral-small-latest", server.base_url), HI)
        assert len(server.requests) == 1  # pi's Mistral client does not retry the request
    final = events[-1]
    assert isinstance(final, StreamError)
    assert final.error.error_message == (
        f"Mistral API error (429): {json.dumps(body)} (retry after 20 s)"
    )
    assert classify_error(final.error) == "retryable"


async def test_context_overflow_is_recognised() -> None:
    words = (
        "Prompt contains 140012 tokens and 0 draft tokens, too large for model with 131072 "
        "maximum context length"
    )
    body = {"object": "error", "message": words, "type": "invalid_request_error"}
    with FakeLLMServer() as server:
        server.queue(FakeResponse.json_body(body, status=400))
        events = await collect(catalog_model("mistral-large-latest", server.base_url), HI)
    final = events[-1]
    assert isinstance(final, StreamError)
    assert final.error.error_message is not None
    assert final.error.error_message.startswith("Mistral API error (400): ")
    assert is_context_overflow(final.error)
    assert classify_error(final.error) == "context_overflow"


async def test_long_error_body_is_cut_as_pi_cuts_it() -> None:
    with FakeLLMServer() as server:
        server.queue(FakeResponse(status=500, content_type="text/plain", chunks=[b"x" * 4100]))
        events = await collect(catalog_model("mistral-large-latest", server.base_url), HI)
    final = events[-1]
    assert isinstance(final, StreamError)
    assert final.error.error_message == (
        f"Mistral API error (500): {'x' * 4000}... [truncated 100 chars]"
    )


async def test_error_inside_the_stream_keeps_the_partial_text() -> None:
    error = {"object": "error", "message": "Service unavailable, try later", "type": "internal"}
    with FakeLLMServer() as server:
        server.queue(FakeResponse.sse([chunk({"content": "Hello "}), error]))
        events = await collect(catalog_model("mistral-large-latest", server.base_url), HI)
    final = events[-1]
    assert isinstance(final, StreamError)
    assert final.error.stop_reason == "error"
    assert final.error.content == [TextContent(text="Hello ")]
    assert final.error.error_message == "Mistral stream error: Service unavailable, try later"
    # as pi: no `text_end` after a failure, the error carries what arrived
    assert [e.type for e in events] == ["start", "text_start", "text_delta", "error"]
    assert classify_error(final.error) == "retryable"


async def test_stream_cut_before_its_end_is_a_lost_connection() -> None:
    with FakeLLMServer() as server:
        server.queue(FakeResponse.sse([chunk({"content": "Hello "}), chunk({"content": "wor"})]))
        events = await collect(catalog_model("mistral-large-latest", server.base_url), HI)
    final = events[-1]
    assert isinstance(final, StreamError)
    assert final.error.content == [TextContent(text="Hello wor")]
    assert (final.error.error_message or "").startswith("Connection lost")
    assert classify_error(final.error) == "retryable"


async def test_finish_reason_length_and_error() -> None:
    with FakeLLMServer() as server:
        server.queue(mistral_stream("Cut", finish="model_length"))
        server.queue(mistral_stream("Bad", finish="error"))
        model = catalog_model("mistral-large-latest", server.base_url)
        cut = (await collect(model, HI))[-1]
        bad = (await collect(model, HI))[-1]
    assert isinstance(cut, StreamDone) and cut.message.stop_reason == "length"
    assert isinstance(bad, StreamError) and bad.error.content[-1] == TextContent(text="Bad")


async def test_abort_mid_stream_ends_at_once_with_the_partial_text() -> None:
    controller = AbortController()
    response = mistral_stream("0123456789" * 20, pause_after_chunks=2)
    with FakeLLMServer() as server:
        server.queue(response)
        model = catalog_model("mistral-large-latest", server.base_url)
        options = StreamOptions(api_key="k", signal=controller.signal)
        events = []
        async for event in stream_mistral(model, HI, options):
            events.append(event)
            if event.type == "text_delta" and event.delta:  # the fake holds after this one
                controller.abort()
    final = events[-1]
    assert isinstance(final, StreamError) and final.error.stop_reason == "aborted"
    assert final.error.content[-1] == TextContent(text="012345")


async def test_headers_key_affinity_and_overrides() -> None:
    with FakeLLMServer() as server:
        server.queue(mistral_stream("a"), mistral_stream("b"))
        model = catalog_model("mistral-large-latest", server.base_url)
        await collect(model, HI, StreamOptions(api_key="sk-1", session_id="sess-9"))
        options = StreamOptions(api_key="sk-1", session_id="sess-9", headers={"X-Affinity": "mine"})
        await collect(model, HI, options)
        first, second = server.requests
    assert first.headers["authorization"] == "Bearer sk-1"
    assert first.headers["accept"] == "text/event-stream"
    assert first.headers["content-type"] == "application/json"
    assert first.headers["x-affinity"] == "sess-9"
    assert second.headers["x-affinity"] == "mine"


def _payload(model_id: str, context: LLMContext, level: str | None = None) -> dict[str, object]:
    model = catalog_model(model_id, "http://127.0.0.1:1")
    return build_payload(model, context, StreamOptions(reasoning=level))


def test_thinking_fields_per_model() -> None:
    assert _payload("mistral-small-latest", HI, "low")["reasoning_effort"] == "high"
    assert _payload("mistral-medium-3.5", HI, "minimal")["reasoning_effort"] == "high"
    assert _payload("magistral-small", HI, "high")["prompt_mode"] == "reasoning"
    assert _payload("mistral-medium-2604", HI, "high")["prompt_mode"] == "reasoning"
    for model_id, level in [("magistral-small", None), ("mistral-large-latest", "high")]:
        payload = _payload(model_id, HI, level)
        assert "prompt_mode" not in payload and "reasoning_effort" not in payload


def test_other_providers_tool_call_ids_become_mistral_ids_as_pi_makes_them() -> None:
    """pi-ai 0.73.1 renames `toolu_01ABCdef` to `9o5szclp9` and `call_abc|fc_123` to
    `18g6kob34` (its `shortHash` of the letters and digits, cut to nine); an id with exactly nine
    letters and digits keeps them."""
    foreign = AssistantMessage(
        content=[
            ToolCall(id="toolu_01ABCdef", name="read", arguments={"path": "a"}),
            ToolCall(id="call_abc|fc_123", name="read", arguments={"path": "b"}),
            ToolCall(id="call_12345", name="read", arguments={"path": "c"}),
        ],
        api="anthropic-messages",
        provider="anthropic",
        model="claude-sonnet-4-5",
        stop_reason="toolUse",
    )
    results = [
        ToolResultMessage(tool_call_id=i, tool_name="read", content=[TextContent(text=i)])
        for i in ("toolu_01ABCdef", "call_abc|fc_123", "call_12345")
    ]
    context = LLMContext(messages=[UserMessage(content="go"), foreign, *results])
    messages = _payload("mistral-large-latest", context)["messages"]
    assert isinstance(messages, list)
    calls = [call["id"] for call in messages[1]["tool_calls"]]
    assert calls == ["9o5szclp9", "18g6kob34", "call12345"]
    assert [m["tool_call_id"] for m in messages[2:]] == calls


def test_conversation_parts_as_pi_sends_them() -> None:
    own = AssistantMessage(
        content=[
            ThinkingContent(thinking="hmm"),
            TextContent(text="  "),
            ToolCall(id="AbCdEfGh1", name="shot", arguments={"x": "é"}),
        ],
        api="mistral-conversations",
        provider="mistral",
        model="pixtral-12b",
        stop_reason="toolUse",
    )
    result = ToolResultMessage(
        tool_call_id="AbCdEfGh1",
        tool_name="shot",
        content=[ImageContent(data=PNG, mime_type="image/png")],
        is_error=True,
    )
    context = LLMContext(
        system_prompt="sys",
        messages=[UserMessage(content="go"), own, result],
        tools=[ToolSpec("shot", "take one", {"type": "object", "properties": {}})],
    )
    for model_id, text, images in [
        ("pixtral-12b", "[tool error] (see attached image)", True),
        ("codestral-latest", "[tool error] (tool image omitted: model does not support images)",
         False),
    ]:  # fmt: skip
        payload = _payload(model_id, context)
        messages = payload["messages"]
        assert isinstance(messages, list)
        assert messages[0] == {"role": "system", "content": "sys"}
        if model_id == "pixtral-12b":
            assert messages[2] == {
                "role": "assistant",
                "content": [{"type": "thinking", "thinking": [{"type": "text", "text": "hmm"}]}],
                "tool_calls": [
                    {
                        "id": "AbCdEfGh1",
                        "type": "function",
                        "function": {"name": "shot", "arguments": '{"x":"é"}'},
                        "index": 0,
                    }
                ],
                "prefix": False,
            }
        tool = messages[3]
        assert tool["role"] == "tool" and tool["name"] == "shot"
        assert tool["content"][0] == {"type": "text", "text": text}
        pictures = [{"type": "image_url", "image_url": f"data:image/png;base64,{PNG}"}]
        assert tool["content"][1:] == (pictures if images else [])
    assert payload["tools"] == [
        {
            "type": "function",
            "function": {
                "name": "shot",
                "description": "take one",
                "strict": False,
                "parameters": {"type": "object", "properties": {}},
            },
        }
    ]
