"""Errors, aborts, payload shape and lazy import of the Chat Completions provider."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from typing import Any

from pi_plugin_openai.completions import stream_completions
from pi_plugin_openai.convert import build_payload

from pi_core.agent.abort import AbortController
from pi_core.ai.errors import classify_error
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


def model_at(server: FakeLLMServer, **fields: Any) -> Model:
    return Model(
        id="m", api="openai-completions", provider="p", base_url=f"{server.base_url}/v1", **fields
    )


async def run(model: Model, options: StreamOptions | None = None) -> list[Any]:
    context = LLMContext(system_prompt="sys", messages=[UserMessage(content="hi")])
    return [
        e async for e in stream_completions(model, context, options or StreamOptions(api_key="k"))
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
    assert final.type in ("error", "done")
    message = final.error if final.type == "error" else final.message
    assert message.content[0].text.startswith("Hello wor")


async def test_abort_mid_stream_is_quick_and_keeps_partial() -> None:
    pieces = [chunk(f"w{i} ") for i in range(200)]
    controller = AbortController()
    with FakeLLMServer() as server:
        server.queue(FakeResponse.sse(pieces, chunk_delay=0.02))
        asyncio.get_running_loop().call_later(0.2, controller.abort)
        started = asyncio.get_running_loop().time()
        events = await run(model_at(server), StreamOptions(api_key="k", signal=controller.signal))
        elapsed = asyncio.get_running_loop().time() - started
    final = events[-1]
    assert final.type == "error" and final.error.stop_reason == "aborted"
    assert final.error.content and final.error.content[0].text.startswith("w0 ")
    assert elapsed < 2.0


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
    plain = Model(id="m", api="openai-completions", provider="p", reasoning=True)
    payload = build_payload(plain, context, StreamOptions(max_tokens=100, reasoning="high"))
    assert payload["messages"][0] == {"role": "developer", "content": "be brief"}
    assert payload["messages"][1]["content"][1] == {
        "type": "image_url",
        "image_url": {"url": "data:image/png;base64,AAAA"},
    }
    assert payload["messages"][2]["tool_calls"][0]["function"] == {
        "name": "read",
        "arguments": json.dumps({"path": "x"}),
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


def test_importing_the_plugin_does_not_import_the_sdk() -> None:
    probe = "import sys, pi_plugin_openai; print('openai' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert result.stdout.strip() == "False", result.stderr
