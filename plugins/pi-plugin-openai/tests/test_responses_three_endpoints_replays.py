"""Real Responses API recordings through OpenAI's, Azure's and the Codex backend's streams.

The three endpoints stream the same events; each recording must give the message its own events
describe (read here from the recording's `output_item.done` items and final response, not from
the plugin), the same on all three. The non-streaming answers (a JSON response object) go through
OpenAI's and Azure's (pi's Codex stream reads SSE only).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pi_plugin_openai.azure import stream_azure_responses
from pi_plugin_openai.codex import stream_codex_responses
from pi_plugin_openai.responses import stream_responses
from pi_runs import fake_jwt

from pi_core.ai.model import Model
from pi_core.ai.protocol import LLMContext, StreamOptions
from pi_core.messages import AssistantMessage, UserMessage
from pi_core.testing import FakeLLMServer, FakeResponse

REPLAYS = Path(__file__).parent / "fixtures" / "responses_replays"
STREAMED = sorted(REPLAYS.glob("*.sse"))
ERROR = REPLAYS / "pydantic-ai__test_openai_responses_model_http_error__0.json"
BODIES = sorted(p for p in REPLAYS.glob("*.json") if not p.name.endswith(".request.json"))
BODIES.remove(ERROR)
ENDPOINTS = {
    "openai": (stream_responses, "openai-responses", "openai", "/v1", "k"),
    "azure": (stream_azure_responses, "azure-openai-responses", "azure-openai-responses",
              "/openai/v1", "k"),
    "codex": (stream_codex_responses, "openai-codex-responses", "openai-codex", "", fake_jwt()),
}  # fmt: skip


def test_every_recording_is_replayed() -> None:
    assert len(STREAMED) == 9 and len(BODIES) == 3 and ERROR.exists()
    assert len(list(REPLAYS.glob("*.request.json"))) == len(STREAMED) + len(BODIES) + 1


def recorded_events(path: Path) -> list[dict[str, Any]]:
    events = []
    for chunk in path.read_text().split("\n\n"):
        data = [line[5:].strip() for line in chunk.splitlines() if line.startswith("data:")]
        if data:
            events.append(json.loads("\n".join(data)))
    return events


def expected(path: Path) -> dict[str, Any]:
    """What the recording says the message is: blocks, usage and stop reason."""
    if path.suffix == ".json":
        final = json.loads(path.read_text())
        items = final["output"]
    else:
        events = recorded_events(path)
        items = [e["item"] for e in events if e["type"] == "response.output_item.done"]
        final = events[-1]["response"]
    blocks: list[Any] = []
    for item in items:
        if item["type"] == "message":
            parts = [p.get("text", "") for p in item["content"] if p["type"] == "output_text"]
            blocks.append(("text", "".join(parts)))
        elif item["type"] == "reasoning":
            blocks.append(("thinking", "\n\n".join(p["text"] for p in item.get("summary") or [])))
        elif item["type"] == "function_call":
            call_id = f"{item['call_id']}|{item['id']}"
            blocks.append(("toolCall", call_id, item["name"], json.loads(item["arguments"])))
    usage = final["usage"]
    cached = usage["input_tokens_details"]["cached_tokens"]
    has_calls = any(block[0] == "toolCall" for block in blocks)
    stop = {"completed": "toolUse" if has_calls else "stop", "incomplete": "length"}
    return {"blocks": blocks, "stop": stop[final["status"]], "id": final["id"],
            "usage": (usage["input_tokens"] - cached, cached, usage["output_tokens"])}  # fmt: skip


def blocks_of(message: AssistantMessage) -> list[Any]:
    out: list[Any] = []
    for block in message.content:
        if block.type == "text":
            out.append(("text", block.text))
        elif block.type == "thinking":
            out.append(("thinking", block.thinking))
        elif block.type == "toolCall":
            out.append(("toolCall", block.id, block.name, block.arguments))
    return out


async def stream_once(endpoint: str, answer: FakeResponse) -> Any:
    stream, api, provider, path, key = ENDPOINTS[endpoint]
    with FakeLLMServer() as server:
        server.queue(answer)
        model = Model(id="gpt-5", api=api, provider=provider, base_url=server.base_url + path)
        context = LLMContext(messages=[UserMessage(content="hi")])
        events = [
            e async for e in stream(model, context, StreamOptions(api_key=key, max_retries=0))
        ]
    return events[-1]


CASES = [(e, p) for e in sorted(ENDPOINTS) for p in STREAMED]
CASES += [(e, p) for e in ("azure", "openai") for p in BODIES]


@pytest.mark.parametrize(("endpoint", "recording"), CASES, ids=lambda v: getattr(v, "name", v))
async def test_a_recorded_answer_gives_its_message(endpoint: str, recording: Path) -> None:
    final = await stream_once(endpoint, FakeResponse.replay(recording))
    want = expected(recording)
    assert final.type == "done", getattr(final, "error", None)
    message = final.message
    assert blocks_of(message) == want["blocks"]
    assert message.stop_reason == want["stop"]
    assert (message.usage.input, message.usage.cache_read, message.usage.output) == want["usage"]
    assert message.response_id == want["id"]


@pytest.mark.parametrize("endpoint", sorted(ENDPOINTS))
async def test_a_recorded_http_error_reads_as_each_endpoint_words_it(endpoint: str) -> None:
    final = await stream_once(endpoint, FakeResponse.replay(ERROR))
    api_message = json.loads(ERROR.read_text())["error"]["message"]
    assert final.type == "error"
    # pi's Codex stream gives the server's message alone; the SDK-based ones lead with the status
    prefix = "" if endpoint == "codex" else "400 "
    assert final.error.error_message == prefix + api_message
