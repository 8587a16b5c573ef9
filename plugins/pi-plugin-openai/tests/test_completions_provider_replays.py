"""Recorded Chat Completions exchanges of OpenRouter, Groq, xAI, Cerebras, DeepSeek, zAI and
OpenAI (`replays/`, see the README in each folder for their sources) through the
`openai-completions` stream: the events and final message are pi 0.73.1's for the same bytes
(`record_pi_completions_events.py`); the whole JSON answers give their content."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from completions_replays import BODIES, ERRORS, STREAMED, Replay, summary
from pi_plugin_openai.completions import stream_completions

from pi_core.ai.model import Model
from pi_core.ai.protocol import LLMContext, StreamOptions
from pi_core.messages import TextContent, ThinkingContent, ToolCall, UserMessage
from pi_core.messages.stream import AssistantMessageEvent, StreamDone
from pi_core.testing import FakeLLMServer, FakeResponse

PI_EVENTS = Path(__file__).resolve().parent / "fixtures" / "completions_events"
CONTEXT = LLMContext(messages=[UserMessage(content="Go.")])

if not STREAMED or not BODIES or not ERRORS:
    raise RuntimeError("the replay fixtures are missing")


def _model(replay: Replay, base_url: str) -> Model:
    """The model as the models.json of the recording gives it to both agents."""
    return Model(
        id=replay.model,
        api="openai-completions",
        provider=replay.provider,
        base_url=base_url,
    )


async def _run(replay: Replay) -> list[AssistantMessageEvent]:
    with FakeLLMServer() as server:
        server.queue(FakeResponse.replay(replay.path))
        model = _model(replay, server.base_url + "/v1")
        # one answer: pi's retries of an HTTP error (its recording) end in the same error
        options = StreamOptions(api_key="test-key", max_retries=0)
        return [event async for event in stream_completions(model, CONTEXT, options)]


def _as_pi(events: list[AssistantMessageEvent]) -> list[dict[str, Any]]:
    lines: list[dict[str, Any]] = []
    for event in events:
        data = event.model_dump(mode="json", by_alias=True, exclude_none=True)
        if data["type"] in ("done", "error"):
            lines.append({"type": "message_end", "message": data.get("message") or data["error"]})
        elif data["type"] != "start":
            lines.append({"type": "message_update", "assistantMessageEvent": data})
    return lines


@pytest.mark.parametrize("replay", [*STREAMED, *ERRORS], ids=lambda r: r.key)
async def test_replay_gives_pis_events(replay: Replay) -> None:
    expected = json.loads((PI_EVENTS / f"{replay.key}.json").read_text())
    assert summary(_as_pi(await _run(replay))) == expected


@pytest.mark.parametrize("replay", BODIES, ids=lambda r: r.key)
async def test_whole_json_answer_gives_its_content(replay: Replay) -> None:
    body = json.loads(replay.path.read_text())
    message = body["choices"][0]["message"]
    done = (await _run(replay))[-1]
    assert isinstance(done, StreamDone), done
    content = done.message.content
    text = "".join(b.text for b in content if isinstance(b, TextContent))
    assert text == (message.get("content") or "")
    calls = [(c.id, c.name, c.arguments) for c in content if isinstance(c, ToolCall)]
    assert calls == [
        (c["id"], c["function"]["name"], json.loads(c["function"]["arguments"]))
        for c in message.get("tool_calls") or []
    ]
    reasoning = next(
        (
            message[f]
            for f in ("reasoning_content", "reasoning", "reasoning_text")
            if message.get(f)
        ),
        "",
    )
    thoughts = "".join(b.thinking for b in content if isinstance(b, ThinkingContent))
    assert thoughts == reasoning
    assert done.message.usage.output == body["usage"]["completion_tokens"]
