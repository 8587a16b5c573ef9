"""The Responses API provider: payload, reasoning round-trip, errors, cuts, aborts, JSON answers."""

from __future__ import annotations

import asyncio
import json
import socket
from pathlib import Path
from typing import Any

import pytest
from pi_plugin_openai import STREAMS, register_providers
from pi_plugin_openai.completions import stream_completions
from pi_plugin_openai.responses import stream_responses
from pi_plugin_openai.responses_convert import build_payload, reasoning_effort

from pi_core.abort import AbortController
from pi_core.ai.auth import AuthStorage
from pi_core.ai.errors import classify_error
from pi_core.ai.model import Model, ProviderConfig
from pi_core.ai.model_registry import ModelRegistry
from pi_core.ai.protocol import LLMContext, StreamOptions, ToolSpec
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

REASONING_ITEM = {
    "id": "rs_1",
    "type": "reasoning",
    "encrypted_content": "gAAAA-opaque",
    "summary": [{"type": "summary_text", "text": "Plan"}],
}


def model_at(server: FakeLLMServer | None = None, **fields: Any) -> Model:
    base = f"{server.base_url}/v1" if server else ""
    values: dict[str, Any] = {"id": "gpt-5.5", "api": "openai-responses", "provider": "openai",
                              "base_url": base, "input": ["text", "image"], **fields}  # fmt: skip
    return Model(**values)


def completed(status: str = "completed", **extra: Any) -> dict[str, Any]:
    usage = {"input_tokens": 30, "input_tokens_details": {"cached_tokens": 10},
             "output_tokens": 7, "total_tokens": 37}  # fmt: skip
    return {"id": "resp_1", "status": status, "output": [], "usage": usage, **extra}


def text_events(*pieces: str, cut: bool = False) -> list[dict[str, Any]]:
    item = {"id": "msg_1", "type": "message", "role": "assistant", "status": "in_progress",
            "content": [], "phase": "final_answer"}  # fmt: skip
    part = {"type": "output_text", "text": "", "annotations": []}
    events: list[dict[str, Any]] = [
        {"type": "response.created", "response": {"id": "resp_1", "status": "in_progress"}},
        {"type": "response.output_item.added", "output_index": 0, "item": item},
        {"type": "response.content_part.added", "item_id": "msg_1", "output_index": 0,
         "content_index": 0, "part": part},
    ]  # fmt: skip
    for piece in pieces:
        events.append({"type": "response.output_text.delta", "item_id": "msg_1",
                       "output_index": 0, "content_index": 0, "delta": piece})  # fmt: skip
    done_item = {**item, "status": "completed",
                 "content": [{**part, "text": "".join(pieces)}]}  # fmt: skip
    events.append({"type": "response.output_item.done", "output_index": 0, "item": done_item})
    events.append({"type": "response.completed", "response": completed()})
    return events


async def run(model: Model, options: StreamOptions | None = None, **context: Any) -> list[Any]:
    ctx = LLMContext(**{"system_prompt": "sys", "messages": [UserMessage(content="hi")], **context})
    return [
        e
        async for e in stream_responses(
            model, ctx, options or StreamOptions(api_key="k", max_retries=0)
        )
    ]


# --- payload ----------------------------------------------------------------------------------


def conversation() -> list[Any]:
    ours = {"api": "openai-responses", "provider": "openai", "model": "gpt-5.5"}
    signed = '{"v":1,"id":"msg_7","phase":"commentary"}'
    image = ImageContent(data="AAAA", mime_type="image/png")
    return [
        UserMessage(content=[TextContent(text="look"), image]),
        AssistantMessage(**ours, stop_reason="toolUse", content=[
            ThinkingContent(thinking="Plan", thinking_signature=json.dumps(REASONING_ITEM)),
            TextContent(text="Reading.", text_signature=signed),
            ToolCall(id="call_1|fc_1", name="read", arguments={"path": "a.txt"}),
        ]),
        ToolResultMessage(tool_call_id="call_1|fc_1", tool_name="read", content=[
            TextContent(text="A"), ImageContent(data="BBBB", mime_type="image/jpeg")]),
    ]  # fmt: skip


def test_payload_items_round_trip_reasoning_calls_results_and_images() -> None:
    context = LLMContext(
        system_prompt="be brief",
        messages=conversation(),
        tools=[ToolSpec("read", "Read a file", {"type": "object"})],
    )
    model = model_at(reasoning=True, max_tokens=128_000)
    payload = build_payload(model, context, StreamOptions(reasoning="high", session_id="s1"))
    items = payload["input"]
    assert items[0] == {"role": "developer", "content": "be brief"}
    assert items[1] == {"role": "user", "content": [
        {"type": "input_text", "text": "look"},
        {"type": "input_image", "detail": "auto", "image_url": "data:image/png;base64,AAAA"},
    ]}  # fmt: skip
    assert items[2] == REASONING_ITEM  # sent back exactly as it came
    assert items[3] == {
        "type": "message", "role": "assistant", "status": "completed", "id": "msg_7",
        "phase": "commentary",
        "content": [{"type": "output_text", "text": "Reading.", "annotations": []}],
    }  # fmt: skip
    assert items[4] == {"type": "function_call", "id": "fc_1", "call_id": "call_1",
                        "name": "read", "arguments": '{"path":"a.txt"}'}  # fmt: skip
    assert items[5] == {"type": "function_call_output", "call_id": "call_1", "output": [
        {"type": "input_text", "text": "A"},
        {"type": "input_image", "detail": "auto", "image_url": "data:image/jpeg;base64,BBBB"},
    ]}  # fmt: skip
    assert payload["tools"] == [{"type": "function", "name": "read", "description": "Read a file",
                                 "parameters": {"type": "object"}, "strict": False}]  # fmt: skip
    assert payload["reasoning"] == {"effort": "high", "summary": "auto"}
    assert payload["include"] == ["reasoning.encrypted_content"]
    assert payload["store"] is False and payload["stream"] is True
    assert payload["max_output_tokens"] == 32_000 and payload["prompt_cache_key"] == "s1"


def test_payload_for_other_models_and_broken_turns() -> None:
    """Another model's thinking goes as text, its call ids are made valid, failed turns vanish."""
    other = {"api": "anthropic-messages", "provider": "anthropic", "model": "claude"}
    messages = [
        UserMessage(content="q"),
        AssistantMessage(**other, stop_reason="toolUse", content=[
            ThinkingContent(thinking="hmm", thinking_signature="sig"),
            ToolCall(id="toolu_01.x", name="read", arguments={}),
        ]),
        AssistantMessage(**other, stop_reason="error", content=[TextContent(text="partial")]),
        UserMessage(content=[ImageContent(data="AAAA", mime_type="image/png")]),
    ]  # fmt: skip
    model = model_at(input=["text"])
    items = build_payload(model, LLMContext(messages=messages), StreamOptions())["input"]
    assert items[1]["content"][0] == {"type": "output_text", "text": "hmm", "annotations": []}
    assert items[2] == {"type": "function_call", "call_id": "toolu_01_x", "name": "read",
                        "arguments": "{}"}  # fmt: skip
    assert items[3] == {"type": "function_call_output", "call_id": "toolu_01_x",
                        "output": "No result provided"}  # fmt: skip
    assert items[4]["content"] == [
        {"type": "input_text", "text": "(image omitted: model does not support images)"}
    ]
    assert len(items) == 5  # the errored turn is not replayed


def test_reasoning_effort_levels() -> None:
    gpt5 = model_at(reasoning=True, thinking_level_map={"off": None})
    gpt55 = model_at(reasoning=True, thinking_level_map={"off": None, "xhigh": "xhigh"})
    o3 = model_at(id="o3", reasoning=True)
    assert reasoning_effort(gpt5, "xhigh") == "high"
    assert reasoning_effort(gpt55, "xhigh") == "xhigh"
    assert reasoning_effort(gpt5, "minimal") == "minimal"
    assert reasoning_effort(model_at(), "high") is None  # not a reasoning model
    context = LLMContext(messages=[UserMessage(content="q")])
    assert "reasoning" not in build_payload(gpt5, context, StreamOptions())
    assert build_payload(o3, context, StreamOptions())["reasoning"] == {"effort": "none"}
    plain = build_payload(model_at(), LLMContext(system_prompt="s"), StreamOptions(max_tokens=5))
    assert plain["input"][0] == {"role": "system", "content": "s"}
    assert "reasoning" not in plain and "include" not in plain
    assert plain["max_output_tokens"] == 5


# --- streaming --------------------------------------------------------------------------------


async def test_streamed_reasoning_summary_text_and_call() -> None:
    reasoning = {"id": "rs_1", "type": "reasoning", "summary": []}
    call = {"id": "fc_1", "type": "function_call", "call_id": "call_1", "name": "read",
            "arguments": "", "status": "in_progress"}  # fmt: skip
    summary = {"type": "summary_text", "text": ""}
    events = [
        {"type": "response.output_item.added", "output_index": 0, "item": reasoning},
        {"type": "response.reasoning_summary_part.added", "item_id": "rs_1", "output_index": 0,
         "summary_index": 0, "part": summary},
        {"type": "response.reasoning_summary_text.delta", "item_id": "rs_1", "output_index": 0,
         "summary_index": 0, "delta": "First"},
        {"type": "response.reasoning_summary_part.added", "item_id": "rs_1", "output_index": 0,
         "summary_index": 1, "part": summary},
        {"type": "response.reasoning_summary_text.delta", "item_id": "rs_1", "output_index": 0,
         "summary_index": 1, "delta": "Second"},
        {"type": "response.output_item.done", "output_index": 0, "item": REASONING_ITEM | {
            "summary": [{"type": "summary_text", "text": "First"},
                        {"type": "summary_text", "text": "Second"}]}},
        {"type": "response.output_item.added", "output_index": 1, "item": call},
        {"type": "response.function_call_arguments.delta", "item_id": "fc_1", "output_index": 1,
         "delta": '{"pa'},
        {"type": "response.function_call_arguments.done", "item_id": "fc_1", "output_index": 1,
         "arguments": '{"path":"a"}'},
        {"type": "response.output_item.done", "output_index": 1,
         "item": call | {"arguments": '{"path":"a"}', "status": "completed"}},
        {"type": "response.completed", "response": completed()},
    ]  # fmt: skip
    with FakeLLMServer() as server:
        server.queue(FakeResponse.sse(events, named=True))
        out = await run(model_at(server, reasoning=True), StreamOptions(api_key="k"))
    message = out[-1].message
    thinking, tool = message.content
    assert thinking.thinking == "First\n\nSecond"
    assert json.loads(thinking.thinking_signature)["encrypted_content"] == "gAAAA-opaque"
    assert "".join(e.delta for e in out if e.type == "thinking_delta") == "First\n\nSecond"
    assert (tool.id, tool.arguments) == ("call_1|fc_1", {"path": "a"})
    assert message.stop_reason == "toolUse" and message.response_id == "resp_1"
    assert (message.usage.input, message.usage.cache_read, message.usage.output) == (20, 10, 7)


@pytest.mark.parametrize(
    ("last", "outcome"),
    [
        ({"type": "response.incomplete", "response": completed("incomplete",
          incomplete_details={"reason": "max_output_tokens"})}, ("done", "length")),
        ({"type": "response.failed", "response": completed("failed",
          error={"code": "server_error", "message": "boom"})}, ("error", "server_error: boom")),
        ({"type": "error", "code": "rate_limit_exceeded", "message": "slow down",
          "sequence_number": 3}, ("error", "Error Code rate_limit_exceeded: slow down")),
    ],
    ids=["incomplete", "failed", "error-event"],
)  # fmt: skip
async def test_terminal_events(last: dict[str, Any], outcome: tuple[str, str]) -> None:
    events = [*text_events("Hel", "lo")[:-2], last]
    with FakeLLMServer() as server:
        server.queue(FakeResponse.sse(events, named=True))
        final = (await run(model_at(server)))[-1]
    assert final.type == outcome[0]
    if final.type == "done":
        assert final.message.stop_reason == outcome[1]
    else:
        assert final.error.error_message == outcome[1]
        assert final.error.content[0].text == "Hello"
        assert classify_error(final.error) == "retryable"


async def test_error_statuses_keep_the_status_and_classify() -> None:
    overflow = "Your input exceeds the context window of this model."
    with FakeLLMServer() as server:
        server.queue(
            FakeResponse.json_body({"error": {"message": "Rate limit reached"}}, status=429),
            FakeResponse.json_body({"error": {"message": "The server had an error"}}, status=500),
            FakeResponse.json_body({"error": {"message": overflow}}, status=400),
            FakeResponse.json_body({"error": {"message": "Incorrect API key"}}, status=401),
        )
        finals = [(await run(model_at(server)))[-1] for _ in range(4)]
    assert [f.type for f in finals] == ["error"] * 4
    messages = [f.error.error_message for f in finals]
    assert messages[0] == "429 Rate limit reached" and messages[1].startswith("500 ")
    kinds = [classify_error(f.error) for f in finals]
    assert kinds == ["retryable", "retryable", "context_overflow", "fatal"]


async def test_connection_cut_mid_stream_keeps_partial_text() -> None:
    with FakeLLMServer() as server:
        server.queue(FakeResponse.sse(text_events("Hello ", "wor", "ld"), cut_after_chunks=5))
        events = await run(model_at(server))
    final = events[-1]
    assert final.type == "error" and final.error.stop_reason == "error"
    assert final.error.content[0].text == "Hello wor"
    assert classify_error(final.error) == "retryable"
    assert [e.type for e in events].count("text_end") == 1


async def test_abort_mid_stream_closes_it_and_keeps_partial() -> None:
    controller = AbortController()
    with FakeLLMServer() as server:
        pieces = [f"w{i} " for i in range(200)]
        server.queue(FakeResponse.sse(text_events(*pieces), chunk_delay=0.02))
        context = LLMContext(messages=[UserMessage(content="hi")])
        options = StreamOptions(api_key="k", signal=controller.signal)
        events = []
        async for event in stream_responses(model_at(server), context, options):
            events.append(event)
            if event.type == "text_delta":  # the first delta: abort while the stream runs
                controller.abort()
    final = events[-1]
    assert final.type == "error" and final.error.stop_reason == "aborted"
    assert final.error.content[0].text.startswith("w0 ")
    assert len(final.error.content[0].text.split()) < 200  # the rest was never read


@pytest.mark.parametrize("stream", [stream_responses, stream_completions])
async def test_abort_before_the_server_answers(stream: Any) -> None:
    """A server that accepts the connection but never answers: the abort still ends it at once."""
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(1)
    silent.setblocking(False)
    host, port = silent.getsockname()
    controller = AbortController()
    model = model_at(base_url=f"http://{host}:{port}/v1")
    loop = asyncio.get_running_loop()

    async def abort_once_connected() -> None:
        connection, _ = await loop.sock_accept(silent)
        controller.abort()
        connection.close()

    aborter = asyncio.ensure_future(abort_once_connected())
    context = LLMContext(messages=[UserMessage(content="hi")])
    options = StreamOptions(api_key="k", signal=controller.signal)
    try:
        async with asyncio.timeout(30):  # a guard against hanging, not a measurement
            events = [e async for e in stream(model, context, options)]
    finally:
        aborter.cancel()
        silent.close()
    assert events[-1].type == "error" and events[-1].error.stop_reason == "aborted"


# --- servers that answer with one JSON body ---------------------------------------------------


async def test_json_body_to_a_streaming_request_becomes_the_same_events() -> None:
    body = completed(output=[
        REASONING_ITEM,
        {"id": "msg_1", "type": "message", "role": "assistant", "status": "completed",
         "content": [{"type": "output_text", "text": "Reading.", "annotations": []}]},
        {"id": "fc_1", "type": "function_call", "call_id": "call_1", "name": "read",
         "arguments": '{"path":"a"}', "status": "completed"},
        {"type": "function_call", "call_id": "call_2", "name": "ls", "arguments": "{}"},
    ])  # fmt: skip
    with FakeLLMServer() as server:
        server.queue(FakeResponse.json_body(body))
        events = await run(model_at(server, reasoning=True))
    assert [e.type for e in events] == [
        "start", "thinking_start", "thinking_delta", "thinking_end", "text_start", "text_delta",
        "text_end", "toolcall_start", "toolcall_delta", "toolcall_end",
        "toolcall_start", "toolcall_delta", "toolcall_end", "done",
    ]  # fmt: skip
    message = events[-1].message
    assert message.content[0].thinking == "Plan"
    assert json.loads(message.content[0].thinking_signature) == REASONING_ITEM
    assert message.content[1].text_signature == '{"v":1,"id":"msg_1"}'
    assert message.content[2].arguments == {"path": "a"} and message.stop_reason == "toolUse"
    assert message.content[3].id == "call_2"  # a server that gives calls no item id


async def test_json_error_body_with_status_200_is_an_error() -> None:
    with FakeLLMServer() as server:
        server.queue(
            FakeResponse.json_body({"error": {"code": "server_error", "message": "oops"}}),
            FakeResponse.json_body({"error": {"message": "model overloaded"}}),
        )
        first = (await run(model_at(server)))[-1]
        model = model_at(server, api="openai-completions")
        context = LLMContext(messages=[UserMessage(content="hi")])
        options = StreamOptions(api_key="k")
        second = [e async for e in stream_completions(model, context, options)][-1]
    assert first.type == "error" and first.error.error_message == "server_error: oops"
    assert second.type == "error" and second.error.error_message == "model overloaded"


async def test_chat_completion_json_body_with_reasoning_content() -> None:
    body = {"id": "c", "object": "chat.completion", "created": 1, "model": "m", "choices": [
        {"index": 0, "finish_reason": "length",
         "message": {"role": "assistant", "content": "Hi", "reasoning_content": "think"}}],
        "usage": {"prompt_tokens": 5, "completion_tokens": 2, "total_tokens": 7}}  # fmt: skip
    with FakeLLMServer() as server:
        server.queue(FakeResponse.json_body(body))
        model = model_at(server, api="openai-completions")
        context = LLMContext(messages=[UserMessage(content="hi")])
        events = [e async for e in stream_completions(model, context, StreamOptions(api_key="k"))]
    message = events[-1].message
    assert [(b.type, getattr(b, "thinking", None) or getattr(b, "text", None))
            for b in message.content] == [("thinking", "think"), ("text", "Hi")]  # fmt: skip
    assert message.stop_reason == "length" and message.usage.output == 2


# --- registration -----------------------------------------------------------------------------


def test_both_api_kinds_stream_for_openai_and_custom_providers(tmp_path: Path) -> None:
    models_json = {"providers": {
        "local": {"baseUrl": "http://localhost:1/v1", "api": "openai-completions",
                  "apiKey": "x", "models": [{"id": "qwen"}]},
        "proxy": {"baseUrl": "http://localhost:2/v1", "api": "openai-responses",
                  "apiKey": "x", "models": [{"id": "gpt-5.5"}]},
    }}  # fmt: skip
    (tmp_path / "models.json").write_text(json.dumps(models_json))
    registry = ModelRegistry(AuthStorage(tmp_path / "auth.json"), tmp_path / "models.json")
    registered: list[tuple[str, ProviderConfig]] = []
    register_providers(lambda name, config: registered.append((name, config)))
    for name, config in registered:
        registry.register_provider(name, config)
    openai = registry.resolve("openai/gpt-5.5").model
    local = registry.resolve("local/qwen").model
    proxy = registry.resolve("proxy/gpt-5.5").model
    # the registered Responses stream is the plugin's lazily importing one
    assert openai.api == "openai-responses"
    assert registry.stream_for(openai) is STREAMS["openai-responses"]
    assert registry.stream_for(local) is stream_completions
    assert registry.stream_for(proxy) is STREAMS["openai-responses"]
    assert set(STREAMS) == {"openai-responses", "openai-completions", "azure-openai-responses",
                            "openai-codex-responses"}  # fmt: skip
    assert all(m.api == "openai-responses" for m in registry.all_models() if m.provider == "openai")
