"""Each recorded Chat Completions stream in tests/fixtures/replays replays through the plugin."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pi_plugin_openai.completions import stream_completions

from pi_core.ai.model import Model
from pi_core.ai.protocol import LLMContext, StreamOptions, ToolSpec
from pi_core.messages import AssistantMessage, TextContent, ToolCall, UserMessage
from pi_core.testing import FakeLLMServer, FakeResponse

REPLAYS = Path(__file__).parent / "fixtures" / "replays"
CHAT_STREAMS = sorted(
    p
    for p in REPLAYS.glob("*.sse")
    if "chat/completions" in json.loads(p.with_name(p.stem + ".request.json").read_text())["uri"]
)

# An empty folder would collect no cases and pass silently: fail instead.
if not CHAT_STREAMS:
    raise RuntimeError(f"no recordings found in {REPLAYS}: the replay fixtures are missing")


def expected_from_sse(path: Path) -> dict[str, Any]:
    """Read the recording directly: text, tool calls, finish reason and usage."""
    text, calls, finish, usage = "", {}, None, None
    for block in path.read_text().split("\n\n"):
        data = block.strip().removeprefix("data: ")
        if not data or data == "[DONE]":
            continue
        chunk = json.loads(data)
        usage = chunk.get("usage") or usage
        for choice in chunk.get("choices", []):
            delta = choice.get("delta") or {}
            text += delta.get("content") or ""
            for call in delta.get("tool_calls") or []:
                entry = calls.setdefault(call["index"], {"id": None, "name": "", "args": ""})
                entry["id"] = call.get("id") or entry["id"]
                function = call.get("function") or {}
                entry["name"] = entry["name"] or function.get("name") or ""  # some hosts repeat it
                entry["args"] += function.get("arguments") or ""
            finish = choice.get("finish_reason") or finish
    return {"text": text, "calls": list(calls.values()), "finish": finish, "usage": usage}


def context_for(request: dict[str, Any]) -> LLMContext:
    """Rebuild the user prompt and tools the recorded request carried."""
    body = request["request_body"]
    tools = [
        ToolSpec(t["function"]["name"], t["function"].get("description", ""),
                 t["function"].get("parameters", {}))
        for t in body.get("tools", [])
    ]  # fmt: skip
    first_user = next(m for m in body["messages"] if m["role"] == "user")
    content = first_user["content"]
    text = content if isinstance(content, str) else content[0]["text"]
    return LLMContext(messages=[UserMessage(content=text)], tools=tools)


@pytest.mark.parametrize("recording", CHAT_STREAMS, ids=[p.stem for p in CHAT_STREAMS])
async def test_recorded_stream_replays(recording: Path) -> None:
    request = json.loads(recording.with_name(recording.stem + ".request.json").read_text())
    expected = expected_from_sse(recording)
    with FakeLLMServer() as server:
        server.queue(FakeResponse.replay(recording))
        model = Model(
            id=request["request_body"]["model"], api="openai-completions", provider="openai",
            base_url=f"{server.base_url}/v1",
        )  # fmt: skip
        events = [
            e
            async for e in stream_completions(
                model, context_for(request), StreamOptions(api_key="k")
            )
        ]
        sent = server.requests[0].json()

    final = events[-1]
    assert final.type == "done", getattr(final, "error", None)
    message: AssistantMessage = final.message
    assert (
        "".join(b.text for b in message.content if isinstance(b, TextContent)) == expected["text"]
    )
    calls = [b for b in message.content if isinstance(b, ToolCall)]
    assert [(c.id, c.name, c.arguments) for c in calls] == [
        (c["id"], c["name"], json.loads(c["args"] or "{}")) for c in expected["calls"]
    ]
    # some OpenAI-compatible hosts never send finish_reason: that is a stop, as in pi (the
    # agent runs the tool calls whatever the stop reason)
    finish = expected["finish"] or "stop"
    stop = {"stop": "stop", "tool_calls": "toolUse", "length": "length"}[finish]
    assert message.stop_reason == stop
    if expected["usage"]:
        cached = (expected["usage"].get("prompt_tokens_details") or {}).get("cached_tokens") or 0
        assert message.usage.input + message.usage.cache_read == expected["usage"]["prompt_tokens"]
        assert message.usage.output == expected["usage"]["completion_tokens"]
        assert message.usage.cache_read == cached
    assert sent["model"] == request["request_body"]["model"]
    assert [t["function"]["name"] for t in sent.get("tools", [])] == [
        t["function"]["name"] for t in request["request_body"].get("tools", [])
    ]
    assert events[0].type == "start"


def test_every_chat_stream_recording_is_covered() -> None:
    assert len(CHAT_STREAMS) >= 10
