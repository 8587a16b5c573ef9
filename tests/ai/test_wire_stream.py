"""`run_stream`, the providers' shared skeleton, through the example plugin docs/providers.md shows.

The example (docs/examples/provider/toy_provider.py, type-checked with the core) streams from the
loopback fake: text, usage, the payload hook, HTTP errors, a cut stream, an abort, and a wire
framing that is not SSE.
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import re
import struct
from collections.abc import AsyncIterator
from pathlib import Path
from types import ModuleType
from typing import Any

import httpx

from pi_core.abort import AbortController
from pi_core.messages import AssistantMessage, TextContent, UserMessage
from pi_core.providers import (
    AssistantMessageEvent,
    EncodedParts,
    LLMContext,
    Model,
    StreamDone,
    StreamError,
    StreamOptions,
    WireAPI,
    WireRequest,
    classify_error,
    run_stream,
)
from pi_core.testing import FakeLLMServer, FakeResponse

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "docs" / "examples" / "provider" / "toy_provider.py"
CONTEXT = LLMContext(system_prompt="Be brief.", messages=[UserMessage(content="Hi")])
END = {"type": "end", "reason": "stop", "usage": {"in": 7, "out": 2}}


def load_example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("toy_provider", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


toy = load_example()


def model_at(server: FakeLLMServer) -> Model:
    return Model(id="toy-1", api="toy-generate", provider="toy", base_url=server.base_url)


async def collect(events: AsyncIterator[AssistantMessageEvent]) -> list[AssistantMessageEvent]:
    return [event async for event in events]


def final(events: list[AssistantMessageEvent]) -> AssistantMessage:
    last = events[-1]
    assert isinstance(last, StreamDone | StreamError)
    return last.message if isinstance(last, StreamDone) else last.error


def kinds(events: list[AssistantMessageEvent]) -> list[str]:
    return [event.type for event in events]


async def test_the_example_streams_text_and_usage_then_done() -> None:
    with FakeLLMServer() as server:
        text = [{"type": "text", "text": "Hel"}, {"type": "text", "text": "lo"}]
        server.queue(FakeResponse.sse([*text, END]))
        options = StreamOptions(api_key="k")
        events = await collect(toy.stream_toy(model_at(server), CONTEXT, options))
        request = server.requests[0]
    assert kinds(events) == ["start", "text_start", "text_delta", "text_delta", "text_end", "done"]
    message = final(events)
    assert message.stop_reason == "stop" and message.content == [TextContent(text="Hello")]
    assert (message.usage.input, message.usage.output) == (7, 2)
    assert request.path == "/generate" and request.headers["authorization"] == "Bearer k"
    assert request.json() == {
        "model": "toy-1",
        "system": "Be brief.",
        "messages": [{"role": "user", "text": "Hi"}],
        "stream": True,
    }


async def test_the_payload_hook_replaces_the_payload_before_the_request() -> None:
    async def hook(payload: Any) -> Any:
        return {**payload, "system": "Replaced."}

    with FakeLLMServer() as server:
        server.queue(FakeResponse.sse([END]))
        options = StreamOptions(api_key="k", on_payload=hook)
        events = await collect(toy.stream_toy(model_at(server), CONTEXT, options))
        sent = server.requests[0].json()
    assert events[-1].type == "done"
    assert sent["system"] == "Replaced."


async def test_an_http_error_ends_the_response_with_its_status_and_delay() -> None:
    with FakeLLMServer() as server:
        body = {"error": {"message": "Slow down"}}
        server.queue(FakeResponse.json_body(body, status=429, headers={"retry-after": "3"}))
        options = StreamOptions(api_key="k", max_retries=0)
        events = await collect(toy.stream_toy(model_at(server), CONTEXT, options))
    message = final(events)
    assert kinds(events) == ["start", "error"]
    assert message.stop_reason == "error" and message.error_message is not None
    assert message.error_message.startswith("429") and "retry after 3 s" in message.error_message
    assert classify_error(message) == "retryable"


async def test_a_cut_stream_keeps_the_text_closes_the_block_and_is_retryable() -> None:
    with FakeLLMServer() as server:
        server.queue(FakeResponse.sse([{"type": "text", "text": "Hel"}]))  # no end event
        events = await collect(toy.stream_toy(model_at(server), CONTEXT, StreamOptions()))
    assert kinds(events) == ["start", "text_start", "text_delta", "text_end", "error"]
    message = final(events)
    assert message.content == [TextContent(text="Hel")] and message.error_message is not None
    assert message.error_message.startswith("Connection lost")
    assert classify_error(message) == "retryable"


async def test_an_abort_mid_stream_ends_the_response_as_aborted() -> None:
    controller = AbortController()
    with FakeLLMServer() as server:
        response = FakeResponse.sse([{"type": "text", "text": "Hel"}, END], pause_after_chunks=1)
        server.queue(response)
        options = StreamOptions(signal=controller.signal)
        events: list[AssistantMessageEvent] = []
        async for event in toy.stream_toy(model_at(server), CONTEXT, options):
            events.append(event)
            if event.type == "text_delta":
                await response.until_paused()
                controller.abort()
        response.resume()
    assert kinds(events) == ["start", "text_start", "text_delta", "text_end", "error"]
    assert final(events).stop_reason == "aborted"


async def frames(response: httpx.Response) -> AsyncIterator[dict[str, Any]]:
    """A binary framing (as AWS's event stream is): a 4-byte big-endian length, then JSON."""
    pending = b""
    async for chunk in response.aiter_bytes():
        pending += chunk
        while len(pending) >= 4 and len(pending) >= 4 + struct.unpack(">I", pending[:4])[0]:
            size = struct.unpack(">I", pending[:4])[0]
            yield json.loads(pending[4 : 4 + size])
            pending = pending[4 + size :]


def framed(*events: dict[str, Any]) -> bytes:
    return b"".join(struct.pack(">I", len(b)) + b for b in (json.dumps(e).encode() for e in events))


async def test_the_decoding_is_a_parameter_so_a_binary_framing_works() -> None:
    wire = WireAPI(toy.build_payload, toy.build_request, toy.ToyEvents, decode=frames)
    body = framed({"type": "text", "text": "framed"}, END)
    with FakeLLMServer() as server:
        # cut into reads that split frames, as a network does
        chunks = [body[:3], body[3:20], body[20:]]
        server.queue(FakeResponse(content_type="application/vnd.amazon.eventstream", chunks=chunks))
        events = await collect(run_stream(wire, model_at(server), CONTEXT, StreamOptions()))
    assert events[-1].type == "done"
    assert final(events).content == [TextContent(text="framed")]


async def test_the_request_may_be_built_by_a_coroutine() -> None:
    async def fetch_token() -> str:
        await asyncio.sleep(0)
        return "fetched"

    async def request(
        model: Model, options: StreamOptions, payload: dict[str, Any], parts: EncodedParts
    ) -> WireRequest:
        built = toy.build_request(model, options, payload, parts)
        headers = {**built.headers, "authorization": f"Bearer {await fetch_token()}"}
        return WireRequest(built.base_url, built.path, built.body, headers)

    wire = WireAPI(toy.build_payload, request, toy.ToyEvents)
    with FakeLLMServer() as server:
        server.queue(FakeResponse.sse([END]))
        events = await collect(run_stream(wire, model_at(server), CONTEXT, StreamOptions()))
        sent = server.requests[0]
    assert events[-1].type == "done"
    assert sent.headers["authorization"] == "Bearer fetched"


def test_docs_show_the_example_as_it_is_checked() -> None:
    doc = (ROOT / "docs" / "providers.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", doc, flags=re.S)
    assert EXAMPLE.read_text() in blocks


def test_header_overrides_replace_whatever_the_case_and_none_removes() -> None:
    from pi_core.ai.wire_stream import WireRequest, with_headers

    request = WireRequest("https://x", "p", b"{}", {"X-Api-Key": "k", "user-agent": "a"})
    shaped = with_headers(request, {"x-api-key": None, "User-Agent": "b", "X-Initiator": "user"})
    assert dict(shaped.headers) == {"User-Agent": "b", "X-Initiator": "user"}
    assert shaped.body == b"{}" and shaped.base_url == "https://x"
