"""How a Chat Completions response ends, as pi 0.73.1 reads `finish_reason`."""

from __future__ import annotations

from typing import Any

import pytest
from pi_plugin_openai.completions import stream_completions

from pi_core.ai.model import Model
from pi_core.ai.protocol import LLMContext, StreamOptions
from pi_core.messages import TextContent, ToolCall, UserMessage
from pi_core.messages.stream import AssistantMessageEvent, StreamDone, StreamError
from pi_core.testing import FakeLLMServer, FakeResponse


def _chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
    return {"id": "x", "object": "chat.completion.chunk", "created": 1, "model": "m",
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}  # fmt: skip


async def _run(*events: dict[str, Any] | str) -> list[AssistantMessageEvent]:
    with FakeLLMServer() as server:
        server.queue(FakeResponse.sse(list(events)))
        model = Model(id="m", api="openai-completions", provider="p", base_url=server.base_url)
        context = LLMContext(messages=[UserMessage(content="hi")])
        options = StreamOptions(api_key="k")
        return [e async for e in stream_completions(model, context, options)]


@pytest.mark.parametrize("reason", ["content_filter", "network_error", "guardrail"])
async def test_other_finish_reasons_are_errors_named_as_pi_names_them(reason: str) -> None:
    events = await _run(_chunk({"content": "Hel"}), _chunk({}, reason), "[DONE]")
    final = events[-1]
    assert isinstance(final, StreamError)
    assert final.error.error_message == f"Provider finish_reason: {reason}"
    assert final.error.content == [TextContent(text="Hel")]
    # as pi: the stream was read to its end, so its blocks end before the error
    assert [e.type for e in events] == ["start", "text_start", "text_delta", "text_end", "error"]


async def test_end_is_a_stop() -> None:
    final = (await _run(_chunk({"content": "ok"}), _chunk({}, "end"), "[DONE]"))[-1]
    assert isinstance(final, StreamDone) and final.message.stop_reason == "stop"


async def test_no_finish_reason_is_a_stop_even_with_tool_calls() -> None:
    call = {"index": 0, "id": "c1", "function": {"name": "read", "arguments": "{}"}}
    events = await _run(_chunk({"tool_calls": [call]}), "[DONE]")
    final = events[-1]
    assert isinstance(final, StreamDone) and final.message.stop_reason == "stop"
    assert events[-2].type == "toolcall_end"


async def test_tool_calls_without_an_index_are_told_apart_by_id() -> None:
    first = {"id": "a1", "function": {"name": "read", "arguments": '{"path": "a"}'}}
    second = {"id": "b2", "function": {"name": "read", "arguments": '{"path": "b"}'}}
    more = {"id": "b2", "function": {"arguments": ""}}
    events = await _run(
        _chunk({"tool_calls": [first]}),
        _chunk({"tool_calls": [second]}),
        _chunk({"tool_calls": [more]}, "tool_calls"),
        "[DONE]",
    )
    final = events[-1]
    assert isinstance(final, StreamDone)
    calls = [(b.id, b.name, b.arguments) for b in final.message.content if isinstance(b, ToolCall)]
    assert calls == [("a1", "read", {"path": "a"}), ("b2", "read", {"path": "b"})]


async def test_a_name_the_first_piece_lacked_is_filled_in() -> None:
    head = {"index": 0, "id": "c1", "function": {"name": "", "arguments": ""}}
    named = {"index": 0, "function": {"name": "grep", "arguments": '{"q": 1}'}}
    events = await _run(
        _chunk({"tool_calls": [head]}), _chunk({"tool_calls": [named]}, "tool_calls"), "[DONE]"
    )
    final = events[-1]
    assert isinstance(final, StreamDone)
    (call,) = [b for b in final.message.content if isinstance(b, ToolCall)]
    assert (call.id, call.name, call.arguments) == ("c1", "grep", {"q": 1})
