"""Recorded Responses API exchanges, and non-streaming JSON answers, replay through the plugin.

Every `openai__test_responses_*` recording (streamed `.sse` and plain `.json`) goes through
`stream_responses`; the `openai__test_tool_use_chain_of_two_calls__*.json` Chat Completions
answers go through `stream_completions`: both recorded requests asked for no stream, so they stand
for servers that ignore `stream: true`. Expectations are read from the recordings here, not from
the plugin. Multi-turn recordings are also replayed as conversations: what the plugin sends on
the next turn must carry the reasoning items, calls and results the recorded request carried.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pi_plugin_openai.completions import stream_completions
from pi_plugin_openai.responses import stream_responses

from pi_core.ai.model import Model
from pi_core.ai.protocol import LLMContext, LLMMessage, StreamOptions, ToolSpec
from pi_core.messages import (
    AssistantMessage,
    TextContent,
    ThinkingContent,
    ToolCall,
    ToolResultMessage,
    UserMessage,
)
from pi_core.testing import FakeLLMServer, FakeResponse

REPLAYS = Path(__file__).parent / "fixtures" / "replays"
RESPONSES = sorted(
    p for p in REPLAYS.glob("openai__test_responses_*") if not p.name.endswith(".request.json")
)
CHAT_JSON = sorted(REPLAYS.glob("openai__test_tool_use_chain_of_two_calls__*.json"))
CHAT_JSON = [p for p in CHAT_JSON if not p.name.endswith(".request.json")]
CHAINS = sorted({p.stem.rsplit("__", 1)[0] for p in RESPONSES if p.stem.endswith("__1")})

# An empty folder would collect no cases and pass silently: fail instead.
if not (RESPONSES and CHAT_JSON and CHAINS):
    raise RuntimeError(f"no recordings found in {REPLAYS}: the replay fixtures are missing")


def request_of(path: Path) -> dict[str, Any]:
    """The recorded request (`X.request.json`) beside a recording."""
    return json.loads(path.with_name(path.stem + ".request.json").read_text())


def sse_events(path: Path) -> list[dict[str, Any]]:
    """The `data:` objects of a recorded SSE stream, in order."""
    events = []
    for block in path.read_text().split("\n\n"):
        for line in block.splitlines():
            if line.startswith("data: ") and line[6:].strip() != "[DONE]":
                events.append(json.loads(line[6:]))
    return events


def final_response(path: Path) -> tuple[dict[str, Any], str | None]:
    """The complete response object, and for streams the text the deltas spelled out."""
    if path.suffix == ".json":
        return json.loads(path.read_text()), None
    events = sse_events(path)
    last = next(e for e in reversed(events) if e["type"].startswith("response."))
    deltas = "".join(e["delta"] for e in events if e["type"] == "response.output_text.delta")
    return last["response"], deltas


def expected_responses(path: Path) -> dict[str, Any]:
    """Text, thinking (with the item kept as signature), calls, usage and stop reason."""
    response, streamed_text = final_response(path)
    text, thinking, calls = "", [], []
    for item in response["output"]:
        if item["type"] == "message":
            text += "".join(p.get("text") or p.get("refusal") or "" for p in item["content"])
        elif item["type"] == "reasoning":
            summary = "\n\n".join(p["text"] for p in item.get("summary") or [])
            thinking.append((summary, item))
        elif item["type"] == "function_call":
            call_id = f"{item['call_id']}|{item['id']}"
            calls.append((call_id, item["name"], json.loads(item["arguments"] or "{}")))
    if streamed_text is not None:
        assert streamed_text == text  # the recording is self-consistent
    usage = response["usage"]
    cached = (usage.get("input_tokens_details") or {}).get("cached_tokens") or 0
    status = response["status"]
    stop = {"completed": "stop", "incomplete": "length"}[status]
    if stop == "stop" and calls:
        stop = "toolUse"
    return {
        "text": text,
        "thinking": thinking,
        "calls": calls,
        "usage": (usage["input_tokens"] - cached, usage["output_tokens"], cached),
        "stop": stop,
        "id": response["id"],
    }


def tools_of(body: dict[str, Any]) -> list[ToolSpec]:
    """The tools a recorded request offered (Responses or Chat Completions shape)."""
    specs = []
    for tool in body.get("tools", []):
        fn = tool.get("function", tool)
        specs.append(ToolSpec(fn["name"], fn.get("description", ""), fn.get("parameters", {})))
    return specs


def first_user_text(body: dict[str, Any]) -> str:
    """The opening user prompt of a recorded request."""
    items = body.get("input") or body.get("messages")
    first = next(m for m in items if m.get("role") == "user")
    content = first["content"]
    return content if isinstance(content, str) else content[0]["text"]


def responses_model(server: FakeLLMServer, body: dict[str, Any]) -> Model:
    """The recorded model as pi's catalog has it: OpenAI, Responses API, reasoning."""
    return Model(
        id=body["model"], api="openai-responses", provider="openai", reasoning=True,
        input=["text", "image"], base_url=f"{server.base_url}/v1",
        thinking_level_map={"off": None, "xhigh": "xhigh"},
    )  # fmt: skip


def options_for(body: dict[str, Any]) -> StreamOptions:
    """The thinking level the recorded request asked for."""
    return StreamOptions(api_key="k", reasoning=(body.get("reasoning") or {}).get("effort"))


async def collect(stream: Any) -> list[Any]:
    return [event async for event in stream]


def check_message(message: AssistantMessage, expected: dict[str, Any]) -> None:
    texts = [b.text for b in message.content if isinstance(b, TextContent)]
    assert "".join(texts) == expected["text"]
    thinking = [
        (b.thinking, json.loads(b.thinking_signature or "null"))
        for b in message.content
        if isinstance(b, ThinkingContent)
    ]
    assert thinking == expected["thinking"]
    calls = [(c.id, c.name, c.arguments) for c in message.content if isinstance(c, ToolCall)]
    assert calls == expected["calls"]
    usage = message.usage
    assert (usage.input, usage.output, usage.cache_read) == expected["usage"]
    assert message.stop_reason == expected["stop"]
    assert message.response_id == expected["id"]


@pytest.mark.parametrize("recording", RESPONSES, ids=[p.stem for p in RESPONSES])
async def test_recorded_response_replays(recording: Path) -> None:
    body = request_of(recording)["request_body"]
    expected = expected_responses(recording)
    context = LLMContext(
        messages=[UserMessage(content=first_user_text(body))], tools=tools_of(body)
    )
    with FakeLLMServer() as server:
        server.queue(FakeResponse.replay(recording))
        model = responses_model(server, body)
        events = await collect(stream_responses(model, context, options_for(body)))
        sent = server.requests[0].json()

    assert server.requests[0].path == "/v1/responses"
    assert events[0].type == "start"
    final = events[-1]
    assert final.type == "done", getattr(final, "error", None)
    check_message(final.message, expected)
    kinds = [e.type for e in events]
    assert kinds.count("text_start") == kinds.count("text_end")
    assert kinds.count("toolcall_end") == len(expected["calls"])
    assert sent["model"] == body["model"] and sent["stream"] is True and sent["store"] is False
    assert sent["reasoning"]["effort"] == body["reasoning"]["effort"]
    assert sent["include"] == ["reasoning.encrypted_content"]
    assert [t["name"] for t in sent.get("tools", [])] == [t.name for t in tools_of(body)]


def expected_chat(path: Path) -> dict[str, Any]:
    """Text, calls, usage and finish reason of a complete `chat.completion` body."""
    response = json.loads(path.read_text())
    message = response["choices"][0]["message"]
    calls = [
        (c["id"], c["function"]["name"], json.loads(c["function"]["arguments"]))
        for c in message.get("tool_calls") or []
    ]
    usage = response["usage"]
    stop = {"stop": "stop", "tool_calls": "toolUse", "length": "length"}
    return {
        "text": message.get("content") or "",
        "calls": calls,
        "usage": (usage["prompt_tokens"], usage["completion_tokens"]),
        "stop": stop[response["choices"][0]["finish_reason"]],
    }


@pytest.mark.parametrize("recording", CHAT_JSON, ids=[p.stem for p in CHAT_JSON])
async def test_chat_completion_json_body_replays_as_a_stream(recording: Path) -> None:
    body = request_of(recording)["request_body"]
    expected = expected_chat(recording)
    context = LLMContext(
        messages=[UserMessage(content=first_user_text(body))], tools=tools_of(body)
    )
    with FakeLLMServer() as server:
        server.queue(FakeResponse.replay(recording))
        model = Model(
            id=body["model"], api="openai-completions", provider="openai",
            base_url=f"{server.base_url}/v1",
        )  # fmt: skip
        events = await collect(stream_completions(model, context, StreamOptions(api_key="k")))

    final = events[-1]
    assert final.type == "done", getattr(final, "error", None)
    message = final.message
    texts = [b.text for b in message.content if isinstance(b, TextContent)]
    assert "".join(texts) == expected["text"]
    calls = [(c.id, c.name, c.arguments) for c in message.content if isinstance(c, ToolCall)]
    assert calls == expected["calls"]
    assert (message.usage.input + message.usage.cache_read, message.usage.output) == expected[
        "usage"
    ]
    assert message.stop_reason == expected["stop"]
    kinds = [e.type for e in events]
    assert kinds[0] == "start"
    assert kinds.count("toolcall_start") == kinds.count("toolcall_end") == len(expected["calls"])
    if expected["text"]:
        assert kinds.count("text_delta") == 1


def _turn_input(items: list[dict[str, Any]]) -> list[Any]:
    """What must match between a recorded request's input and ours (ids aside)."""
    result: list[Any] = []
    for item in items:
        kind = item.get("type", "message")
        if kind == "reasoning":
            result.append(item)
        elif kind == "function_call":
            result.append(("call", item["call_id"], item["name"], json.loads(item["arguments"])))
        elif kind == "function_call_output":
            result.append(("output", item["call_id"], item["output"]))
        elif item.get("role") == "user":
            content = item["content"]
            result.append(("user", content if isinstance(content, str) else content[0]["text"]))
    return result


@pytest.mark.parametrize("chain", CHAINS)
async def test_recorded_conversation_round_trips(chain: str) -> None:
    """Each turn's sent input carries the earlier reasoning items unchanged, calls and results."""
    turns = sorted(p for p in RESPONSES if p.stem.rsplit("__", 1)[0] == chain)
    bodies = [request_of(p)["request_body"] for p in turns]
    messages: list[LLMMessage] = [UserMessage(content=first_user_text(bodies[0]))]
    with FakeLLMServer() as server:
        for step, recording in enumerate(turns):
            server.queue(FakeResponse.replay(recording))
            model = responses_model(server, bodies[step])
            context = LLMContext(messages=list(messages), tools=tools_of(bodies[step]))
            events = await collect(stream_responses(model, context, options_for(bodies[step])))
            sent = server.requests[step].json()
            assert _turn_input(sent["input"]) == _turn_input(bodies[step]["input"])
            final = events[-1]
            assert final.type == "done", getattr(final, "error", None)
            messages.append(final.message)
            if step + 1 < len(turns):
                outputs = {
                    i["call_id"]: i["output"]
                    for i in bodies[step + 1]["input"]
                    if i.get("type") == "function_call_output"
                }
                for call in final.message.content:
                    if isinstance(call, ToolCall):
                        text = outputs[call.id.split("|")[0]]
                        messages.append(
                            ToolResultMessage(
                                tool_call_id=call.id,
                                tool_name=call.name,
                                content=[TextContent(text=text)],
                            )
                        )


def test_every_openai_recording_is_covered() -> None:
    recordings = sorted(p for p in REPLAYS.iterdir() if not p.name.endswith(".request.json"))
    chat_streams = [
        p for p in recordings if p.suffix == ".sse" and "chat/completions" in request_of(p)["uri"]
    ]  # replayed by test_completions_replays.py
    covered = set(RESPONSES) | set(CHAT_JSON) | set(chat_streams)
    assert len(recordings) == 26 and len(RESPONSES) == 13 and len(CHAT_JSON) == 3
    assert sorted(covered) == recordings
    requests = sorted(REPLAYS.glob("*.request.json"))
    assert len(requests) == len(recordings)
