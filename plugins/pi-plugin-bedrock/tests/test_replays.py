"""Each recorded ConverseStream response replays through the plugin, served in odd-sized chunks
so frames straddle reads; the expected content is read from the recording itself."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import unquote

import pytest
from bedrock_wire import REPLAYS, decode, replay, replay_bytes
from pi_plugin_bedrock.stream import stream_converse

from pi_core.ai.model import Model
from pi_core.ai.protocol import LLMContext, StreamOptions
from pi_core.messages import TextContent, ThinkingContent, ToolCall, UserMessage
from pi_core.testing import FakeLLMServer

NAMES = sorted(p.name.removesuffix(".bin.b64") for p in REPLAYS.glob("*.bin.b64"))

if not NAMES:  # an empty folder would collect nothing and pass
    raise RuntimeError(f"no recordings found in {REPLAYS}")

_STOP = {"end_turn": "stop", "tool_use": "toolUse", "max_tokens": "length"}


def expected(name: str) -> dict[str, Any]:
    """Text, reasoning, signatures, redacted data, tool inputs, usage and stop, per recording."""
    blocks: dict[int, dict[str, Any]] = {}
    usage: dict[str, int] = {}
    stop = None
    for headers, payload in decode(replay_bytes(name)):
        kind = headers[":event-type"]
        if kind in ("contentBlockStart", "contentBlockDelta"):
            block = blocks.setdefault(
                payload["contentBlockIndex"],
                {"text": "", "thinking": "", "signature": "", "redacted": "", "input": ""},
            )
            tool = (payload.get("start") or {}).get("toolUse")
            if tool:
                block.update(id=tool["toolUseId"], name=tool["name"])
            delta = payload.get("delta") or {}
            reasoning = delta.get("reasoningContent") or {}
            block["text"] += delta.get("text", "")
            block["input"] += (delta.get("toolUse") or {}).get("input", "")
            block["thinking"] += reasoning.get("text", "")
            block["signature"] += reasoning.get("signature", "")
            block["redacted"] += reasoning.get("redactedContent", "")
            block.setdefault("kind", "tool" if tool else "reasoning" if reasoning else "text")
        elif kind == "messageStop":
            stop = payload["stopReason"]
        elif kind == "metadata":
            usage = payload["usage"]
    return {"blocks": [blocks[i] for i in sorted(blocks)], "usage": usage, "stop": stop}


def model_for(name: str, base_url: str) -> Model:
    meta = json.loads((REPLAYS / f"{name}.request.json").read_text())
    model_id = unquote(meta["uri"].split("/model/", 1)[1].rsplit("/", 1)[0])
    return Model(
        id=model_id,
        name=model_id,
        api="bedrock-converse-stream",
        provider="amazon-bedrock",
        base_url=base_url,
        reasoning=True,
    )


@pytest.mark.parametrize("name", NAMES)
async def test_recorded_stream_replays(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AWS_BEARER_TOKEN_BEDROCK", "test-token")
    want = expected(name)
    context = LLMContext(messages=[UserMessage(content="replayed prompt")])
    with FakeLLMServer() as server:
        server.queue(replay(name))
        model = model_for(name, server.base_url)
        events = [e async for e in stream_converse(model, context, StreamOptions(max_retries=0))]
    final = events[-1]
    assert final.type == "done", getattr(final, "error", None)
    message = final.message
    assert message.stop_reason == _STOP[want["stop"]]
    assert message.usage.input == want["usage"]["inputTokens"]
    assert message.usage.output == want["usage"]["outputTokens"]
    assert message.usage.cache_read == want["usage"].get("cacheReadInputTokens", 0)
    assert message.usage.cache_write == want["usage"].get("cacheWriteInputTokens", 0)
    assert len(message.content) == len(want["blocks"])
    for block, recorded in zip(message.content, want["blocks"], strict=True):
        if recorded["kind"] == "text":
            assert isinstance(block, TextContent) and block.text == recorded["text"]
        elif recorded["kind"] == "tool":
            assert isinstance(block, ToolCall)
            assert (block.id, block.name) == (recorded["id"], recorded["name"])
            assert block.arguments == json.loads(recorded["input"] or "{}")
        else:
            assert isinstance(block, ThinkingContent)
            assert block.thinking == recorded["thinking"]
            if recorded["redacted"]:
                assert block.redacted and block.thinking_signature == recorded["redacted"]
            else:
                assert (block.thinking_signature or "") == recorded["signature"]
    kinds = [e.type for e in events]
    assert kinds[0] == "start" and kinds.count("text_start") == kinds.count("text_end")


def test_the_recordings_cover_thinking_signatures_redaction_and_tool_input() -> None:
    everything = [block for name in NAMES for block in expected(name)["blocks"]]
    assert any(block["signature"] for block in everything)
    assert any(block["redacted"] for block in everything)
    assert any(block["kind"] == "tool" and block["input"] for block in everything)
