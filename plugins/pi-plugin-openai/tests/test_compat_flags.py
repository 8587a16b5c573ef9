"""Compat flags the scripted pi comparison (tests/requests_vs_pi) cannot reach from the command
line, checked in the request the fake receives, each as pi 0.73.1's openai-completions does it."""

from __future__ import annotations

from typing import Any

import pytest
from pi_plugin_openai.compat import FLAGS, detect_compat, resolve_compat
from pi_plugin_openai.completions import stream_completions

from pi_core.ai.model import Model
from pi_core.ai.protocol import LLMContext, StreamOptions
from pi_core.messages import (
    AssistantMessage,
    TextContent,
    ThinkingContent,
    ToolCall,
    ToolResultMessage,
    UserMessage,
)
from pi_core.testing import FakeLLMServer, FakeResponse, chat_stream


def model_at(server: FakeLLMServer, path: str = "/v1", **fields: Any) -> Model:
    return Model(
        id="m", api="openai-completions", provider="p", base_url=server.base_url + path, **fields
    )


async def send(model: Model, context: LLMContext, options: StreamOptions) -> list[Any]:
    return [event async for event in stream_completions(model, context, options)]


TOOL_TURNS = [
    UserMessage(content="read it"),
    AssistantMessage(
        api="openai-completions",
        provider="p",
        model="m",
        content=[ToolCall(id="c1", name="read", arguments={"path": "é.txt"})],
    ),
    ToolResultMessage(tool_call_id="c1", tool_name="read", content=[TextContent(text="x")]),
    UserMessage(content="and now?"),
]


async def test_a_user_message_after_tool_results_gets_a_bridging_assistant_message() -> None:
    with FakeLLMServer() as server:
        server.queue(chat_stream("ok"))
        model = model_at(server, compat={"requiresAssistantAfterToolResult": True})
        await send(model, LLMContext(messages=TOOL_TURNS), StreamOptions(api_key="k"))
        messages = server.requests[0].json()["messages"]
    assert [m["role"] for m in messages] == ["user", "assistant", "tool", "assistant", "user"]
    assert messages[3] == {"role": "assistant", "content": "I have processed the tool results."}
    assert messages[1]["content"] == ""  # not null: these providers refuse it
    # JSON.stringify's form: no spaces, non-ASCII kept
    assert messages[1]["tool_calls"][0]["function"]["arguments"] == '{"path":"é.txt"}'


async def test_session_affinity_headers_and_prompt_cache_key() -> None:
    with FakeLLMServer() as server:
        server.queue(chat_stream("ok"), chat_stream("ok"))
        context = LLMContext(messages=[UserMessage(content="hi")])
        options = StreamOptions(api_key="k", session_id="s-1")
        model = model_at(server, compat={"sendSessionAffinityHeaders": True})
        await send(model, context, options)
        await send(model_at(server, "/api.openai.com/v1"), context, options)
        first, second = server.requests
    assert first.headers["session_id"] == "s-1"
    assert first.headers["x-client-request-id"] == "s-1"
    assert first.headers["x-session-affinity"] == "s-1"
    assert "prompt_cache_key" not in first.json()
    assert "session_id" not in second.headers
    assert second.json()["prompt_cache_key"] == "s-1"


async def test_long_cache_retention_asks_for_a_day(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PI_CACHE_RETENTION", "long")
    with FakeLLMServer() as server:
        server.queue(chat_stream("ok"), chat_stream("ok"))
        context = LLMContext(messages=[UserMessage(content="hi")])
        options = StreamOptions(api_key="k", session_id="s-1")
        await send(model_at(server), context, options)
        await send(model_at(server, "/api.cloudflare.com/v1"), context, options)
        kept, workers = (request.json() for request in server.requests)
    assert kept["prompt_cache_key"] == "s-1" and kept["prompt_cache_retention"] == "24h"
    assert "prompt_cache_key" not in workers and "prompt_cache_retention" not in workers


async def test_reasoning_goes_back_in_the_field_it_came_in() -> None:
    with FakeLLMServer() as server:
        answer = chat_stream("done")
        answer.chunks.insert(1, b'data: {"choices":[{"index":0,"delta":{"reasoning":"hm"}}]}\n\n')
        server.queue(answer, chat_stream("ok"))
        model = model_at(server, reasoning=True)
        context = LLMContext(messages=[UserMessage(content="hi")])
        events = await send(model, context, StreamOptions(api_key="k"))
        reply = events[-1].message
        assert reply.content[0] == ThinkingContent(thinking="hm", thinking_signature="reasoning")
        context.messages += [reply, UserMessage(content="again")]
        await send(model, context, StreamOptions(api_key="k"))
        replayed = server.requests[1].json()["messages"][1]
    assert replayed == {"role": "assistant", "content": "done", "reasoning": "hm"}


async def test_openrouter_routing_goes_in_provider() -> None:
    routing = {"order": ["anthropic"], "allow_fallbacks": False}
    with FakeLLMServer() as server:
        server.queue(chat_stream("ok"))
        model = model_at(server, "/openrouter.ai/api/v1", compat={"openRouterRouting": routing})
        await send(model, LLMContext(messages=[UserMessage(content="hi")]), StreamOptions())
        body = server.requests[0].json()
    assert body["provider"] == routing


@pytest.mark.parametrize(
    ("provider", "url", "expected"),
    [
        ("p", "https://api.cerebras.ai/v1", {"supportsStore": False,
                                             "supportsDeveloperRole": False}),
        ("cloudflare-ai-gateway", "", {"maxTokensField": "max_tokens", "supportsStrictMode": False,
                                       "supportsReasoningEffort": False,
                                       "supportsLongCacheRetention": False}),
        ("moonshotai-cn", "", {"maxTokensField": "max_tokens", "supportsStrictMode": False}),
        ("p", "https://api.deepseek.com", {"thinkingFormat": "deepseek",
                                           "requiresReasoningContentOnAssistantMessages": True}),
        ("p", "https://api.openai.com/v1", {"supportsStore": True, "thinkingFormat": "openai"}),
    ],
)  # fmt: skip
def test_detection_by_provider_and_url(provider: str, url: str, expected: dict[str, Any]) -> None:
    flags = detect_compat(Model(id="m", api="openai-completions", provider=provider, base_url=url))
    assert set(flags) == set(FLAGS)
    assert {name: flags[name] for name in expected} == expected


def test_a_null_in_compat_keeps_the_detected_value() -> None:
    model = Model(
        id="m", api="openai-completions", provider="zai",
        compat={"thinkingFormat": None, "supportsStore": True},
    )  # fmt: skip
    flags = resolve_compat(model)
    assert flags["thinkingFormat"] == "zai" and flags["supportsStore"] is True


def _chunk(delta: dict[str, Any], finish: str | None = None, **extra: Any) -> dict[str, Any]:
    choice = {"index": 0, "delta": delta, "finish_reason": finish, **extra}
    return {"id": "x", "object": "chat.completion.chunk", "model": "m", "choices": [choice]}


async def test_encrypted_reasoning_of_a_tool_call_is_sent_back() -> None:
    detail = {"type": "reasoning.encrypted", "id": "c1", "data": "opaque", "format": "x"}
    call = {"index": 0, "id": "c1", "type": "function",
            "function": {"name": "read", "arguments": '{"path":"a"}'}}  # fmt: skip
    with FakeLLMServer() as server:
        server.queue(
            FakeResponse.sse(
                [
                    _chunk({"tool_calls": [call]}),
                    _chunk({"reasoning_details": [detail]}, "tool_calls"),
                    "[DONE]",
                ]
            ),
            chat_stream("ok"),
        )
        model = model_at(server)
        context = LLMContext(messages=[UserMessage(content="hi")])
        reply = (await send(model, context, StreamOptions()))[-1].message
        result = ToolResultMessage(tool_call_id="c1", tool_name="read", content=[])
        context.messages += [reply, result]
        await send(model, context, StreamOptions())
        replayed = server.requests[1].json()["messages"][1]
    assert replayed["reasoning_details"] == [detail]


async def test_usage_as_pi_reads_it() -> None:
    deepseek = {"prompt_tokens": 100, "completion_tokens": 5, "prompt_cache_hit_tokens": 60}
    router = {"prompt_tokens": 100, "completion_tokens": 5,
              "prompt_tokens_details": {"cached_tokens": 70, "cache_write_tokens": 20}}  # fmt: skip
    with FakeLLMServer() as server:
        server.queue(
            FakeResponse.sse([_chunk({"content": "a"}, "stop"), {"choices": [], "usage": deepseek},
                              "[DONE]"]),
            FakeResponse.sse([_chunk({"content": "a"}, "stop", usage=router), "[DONE]"]),
        )  # fmt: skip
        context = LLMContext(messages=[UserMessage(content="hi")])
        first = (await send(model_at(server), context, StreamOptions()))[-1].message.usage
        second = (await send(model_at(server), context, StreamOptions()))[-1].message.usage
    assert (first.input, first.cache_read, first.cache_write) == (40, 60, 0)
    assert (second.input, second.cache_read, second.cache_write) == (30, 50, 20)
