"""Recorded Mistral responses (`replays/`, see its README for their sources) through the stream:
the events and final message are pi 0.73.1's for the same bytes (`record_pi_events.py`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from mistral_replays import BODIES, ERRORS, STREAMED, replay_model, summary
from mistral_run import as_pi, catalog_model, collect

from pi_core.messages import TextContent, ThinkingContent, ToolCall, UserMessage
from pi_core.providers import LLMContext, StreamDone
from pi_core.testing import FakeLLMServer, FakeResponse

PI_EVENTS = Path(__file__).resolve().parent / "fixtures" / "events"
CONTEXT = LLMContext(messages=[UserMessage(content="Go.")])

if not STREAMED or not BODIES:
    raise RuntimeError("the replay fixtures are missing")


@pytest.mark.parametrize("path", [*STREAMED, *ERRORS], ids=lambda p: p.stem)
async def test_replay_gives_pis_events(path: Path) -> None:
    expected = json.loads((PI_EVENTS / f"{path.stem}.json").read_text())
    with FakeLLMServer() as server:
        server.queue(FakeResponse.replay(path))
        events = await collect(catalog_model(replay_model(path), server.base_url), CONTEXT)
        (request,) = server.requests
    assert request.path == "/v1/chat/completions"
    assert summary(as_pi(events)) == expected


def _only(path_name: str) -> Path:
    (path,) = [p for p in [*STREAMED, *BODIES] if p.stem == path_name]
    return path


async def test_streamed_tool_call_is_parsed() -> None:
    path = _only("ruby_llm__function_calling_multi_turn_streaming__0")
    with FakeLLMServer() as server:
        server.queue(FakeResponse.replay(path))
        events = await collect(catalog_model("mistral-small-latest", server.base_url), CONTEXT)
    done = events[-1]
    assert isinstance(done, StreamDone)
    calls = [b for b in done.message.content if isinstance(b, ToolCall)]
    assert [(c.id, c.name, c.arguments) for c in calls] == [
        ("g6fVbXS8K", "weather", {"latitude": "52.5200", "longitude": "13.4050"})
    ]
    assert done.message.stop_reason == "toolUse"
    assert (done.message.usage.input, done.message.usage.output) == (159, 28)
    assert done.message.usage.cost.total > 0


async def test_magistral_thinking_then_text() -> None:
    path = _only("pydantic-ai__test_mistral_model_thinking_part_iter__0")
    with FakeLLMServer() as server:
        server.queue(FakeResponse.replay(path))
        events = await collect(catalog_model("magistral-medium-latest", server.base_url), CONTEXT)
    done = events[-1]
    assert isinstance(done, StreamDone)
    kinds = [type(b).__name__ for b in done.message.content]
    assert kinds == ["TextContent", "ThinkingContent", "TextContent"]
    thinking = done.message.content[1]
    answer = done.message.content[2]
    assert isinstance(thinking, ThinkingContent) and thinking.thinking.startswith("Okay, the user")
    assert isinstance(answer, TextContent) and answer.text.strip()


@pytest.mark.parametrize("path", BODIES, ids=lambda p: p.stem)
async def test_whole_json_answer_is_understood(path: Path) -> None:
    """A server that answers with one `chat.completion` body instead of a stream."""
    body = json.loads(path.read_text())
    (choice,) = body["choices"]
    with FakeLLMServer() as server:
        server.queue(FakeResponse.replay(path))
        events = await collect(catalog_model(replay_model(path), server.base_url), CONTEXT)
    done = events[-1]
    assert isinstance(done, StreamDone), done
    message = choice["message"]
    calls = [b for b in done.message.content if isinstance(b, ToolCall)]
    assert [(c.id, c.name, c.arguments) for c in calls] == [
        (c["id"], c["function"]["name"], json.loads(c["function"]["arguments"]))
        for c in message.get("tool_calls") or []
    ]
    content = message["content"]
    parts = [content] if isinstance(content, str) else content
    texts = [
        p if isinstance(p, str) else p["text"]
        for p in parts
        if isinstance(p, str) or p["type"] == "text"
    ]
    got = [b.text for b in done.message.content if isinstance(b, TextContent)]
    assert "".join(got) == "".join(texts)
    thoughts = [p for p in parts if isinstance(p, dict) and p["type"] == "thinking"]
    got_thinking = [b for b in done.message.content if isinstance(b, ThinkingContent)]
    assert len(got_thinking) == (1 if thoughts else 0)
    assert done.message.usage.input == body["usage"]["prompt_tokens"]
    stop = {"stop": "stop", "tool_calls": "toolUse"}[choice["finish_reason"]]
    assert done.message.stop_reason == stop


def _is_text(part: object) -> bool:
    return isinstance(part, str) or (isinstance(part, dict) and part.get("type") == "text")
