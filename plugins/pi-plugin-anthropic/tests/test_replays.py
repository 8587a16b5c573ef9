"""Each recorded Messages API stream in tests/fixtures/replays replays through the plugin.

The two `test_url_prompt` `.json` recordings are image downloads (`GET` of a JPEG by the recording
client), not Messages API responses, so there is nothing for a provider to replay in them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pi_plugin_anthropic.stream import stream_messages

from pi_core.ai.model import Model
from pi_core.ai.protocol import LLMContext, StreamOptions, ToolSpec
from pi_core.messages import TextContent, ThinkingContent, ToolCall, UserMessage
from pi_core.testing import FakeLLMServer, FakeResponse

REPLAYS = Path(__file__).parent / "fixtures" / "replays"
STREAMS = sorted(REPLAYS.glob("*.sse"))

# An empty folder would collect no cases and pass silently: fail instead.
if not STREAMS:
    raise RuntimeError(f"no recordings found in {REPLAYS}: the replay fixtures are missing")


def expected_from_sse(path: Path) -> dict[str, Any]:
    """Read the recording directly: text, thinking, signatures, tool inputs, usage, stop reason."""
    blocks: dict[int, dict[str, Any]] = {}
    usage: dict[str, int] = {}
    stop = None
    for raw in path.read_text().split("\n\n"):
        data = next((l[6:] for l in raw.splitlines() if l.startswith("data: ")), None)  # noqa: E741
        if not data:
            continue
        event = json.loads(data)
        kind = event["type"]
        if kind == "message_start":
            usage.update({k: v for k, v in event["message"]["usage"].items() if isinstance(v, int)})
        elif kind == "content_block_start":
            block = event["content_block"]
            blocks[event["index"]] = {
                "type": block["type"],
                "text": block.get("text", ""),
                "thinking": "",
                "signature": "",
                "json": "",
                "id": block.get("id"),
                "name": block.get("name"),
                "data": block.get("data"),
            }
        elif kind == "content_block_delta":
            delta, block = event["delta"], blocks[event["index"]]
            block["text"] += delta.get("text", "")
            block["thinking"] += delta.get("thinking", "")
            block["signature"] += delta.get("signature", "")
            block["json"] += delta.get("partial_json", "")
        elif kind == "message_delta":
            stop = event["delta"].get("stop_reason") or stop
            usage.update(
                {k: v for k, v in (event.get("usage") or {}).items() if isinstance(v, int)}
            )
    ordered = [blocks[i] for i in sorted(blocks)]
    return {"blocks": ordered, "usage": usage, "stop": stop}


def context_for(request: dict[str, Any]) -> LLMContext:
    body = request["request_body"]
    tools = [
        ToolSpec(t["name"], t.get("description", ""), t.get("input_schema", {}))
        for t in body.get("tools", [])
        if "input_schema" in t
    ]
    return LLMContext(messages=[UserMessage(content="replayed prompt")], tools=tools)


@pytest.mark.parametrize("recording", STREAMS, ids=[p.stem for p in STREAMS])
async def test_recorded_stream_replays(recording: Path) -> None:
    request = json.loads(recording.with_name(recording.stem + ".request.json").read_text())
    expected = expected_from_sse(recording)
    with FakeLLMServer() as server:
        server.queue(FakeResponse.replay(recording))
        model = Model(
            id=request["request_body"]["model"],
            api="anthropic-messages",
            provider="anthropic",
            base_url=server.base_url,
            reasoning=True,
        )
        options = StreamOptions(api_key="k")
        events = [e async for e in stream_messages(model, context_for(request), options)]
        sent = server.requests[0]

    final = events[-1]
    assert final.type == "done", getattr(final, "error", None)
    message = final.message
    ours = [b for b in message.content]
    wanted = [
        b
        for b in expected["blocks"]
        if b["type"] in ("text", "thinking", "redacted_thinking", "tool_use")
    ]
    assert len(ours) == len(wanted)
    for got, want in zip(ours, wanted, strict=True):
        if want["type"] == "text":
            assert isinstance(got, TextContent) and got.text == want["text"]
        elif want["type"] == "thinking":
            assert isinstance(got, ThinkingContent) and got.thinking == want["thinking"]
            assert got.thinking_signature == (want["signature"] or None)
        elif want["type"] == "redacted_thinking":
            assert isinstance(got, ThinkingContent) and got.redacted
            assert got.thinking_signature == want["data"]
        else:
            assert isinstance(got, ToolCall) and (got.id, got.name) == (want["id"], want["name"])
            assert got.arguments == json.loads(want["json"] or "{}")
    usage = expected["usage"]
    assert message.usage.input == usage.get("input_tokens", 0)
    assert message.usage.output == usage.get("output_tokens", 0)
    assert message.usage.cache_read == usage.get("cache_read_input_tokens", 0)
    assert message.usage.cache_write == usage.get("cache_creation_input_tokens", 0)
    stops = {
        "end_turn": "stop",
        "tool_use": "toolUse",
        "max_tokens": "length",
        "stop_sequence": "stop",
        "pause_turn": "stop",
    }
    assert message.stop_reason == stops[expected["stop"]]
    assert sent.path == "/v1/messages", sent.headers
    assert sent.json()["model"] == request["request_body"]["model"]


def test_every_stream_recording_is_covered() -> None:
    assert len(STREAMS) == 27
