"""The ConverseStream plugin against the loopback fake: tool loop, errors, exceptions mid-stream,
overflow, abort, stop reasons, a corrupt frame."""

from __future__ import annotations

import json
from typing import Any

import pytest
from bedrock_wire import event, exception, replay_error, stream, text_frames, tool_frames, turn
from pi_plugin_bedrock.stream import stream_converse

from pi_core.abort import AbortController
from pi_core.ai.errors import classify_error, is_context_overflow, retry_after_ms
from pi_core.ai.model import Model
from pi_core.ai.protocol import LLMContext, StreamOptions, ToolSpec
from pi_core.messages import ToolCall, ToolResultMessage, UserMessage
from pi_core.testing import FakeLLMServer, FakeResponse

CONTEXT = LLMContext(system_prompt="sys", messages=[UserMessage(content="hi")])


@pytest.fixture(autouse=True)
def bearer(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AWS_BEARER_TOKEN_BEDROCK", "test-token")


def model_at(server: FakeLLMServer, model_id: str = "amazon.nova-micro-v1:0") -> Model:
    return Model(
        id=model_id,
        api="bedrock-converse-stream",
        provider="amazon-bedrock",
        base_url=server.base_url,
        context_window=1000,
        max_tokens=4096,
    )


async def run(server: FakeLLMServer, context: LLMContext = CONTEXT) -> list[Any]:
    options = StreamOptions(max_retries=0)
    return [e async for e in stream_converse(model_at(server), context, options)]


async def test_tool_loop_streams_input_and_sends_the_result_back() -> None:
    read = ToolSpec("read", "Read a file", {"type": "object", "properties": {}})
    context = LLMContext(messages=[UserMessage(content="read it")], tools=[read])
    with FakeLLMServer() as server:
        call = tool_frames("tooluse_1", "read", ['{"pa', 'th": "a.t', 'xt"}'], index=1)
        server.queue(
            stream(turn([*text_frames(["Let me look."]), *call], stop="tool_use")),
            stream(turn(text_frames(["It says hi."]))),
        )
        first = (await run(server, context))[-1].message
        assert first.stop_reason == "toolUse"
        tool = first.content[1]
        assert isinstance(tool, ToolCall) and tool.arguments == {"path": "a.txt"}
        result = ToolResultMessage(
            tool_call_id=tool.id,
            tool_name="read",
            content=[{"type": "text", "text": "hi"}],
            is_error=False,
        )
        context.messages += [first, result]
        second = (await run(server, context))[-1].message
        sent = [request.json() for request in server.requests]
    assert second.content[0].text == "It says hi." and second.stop_reason == "stop"
    assert sent[1]["messages"][1] == {
        "role": "assistant",
        "content": [
            {"text": "Let me look."},
            {"toolUse": {"toolUseId": "tooluse_1", "name": "read", "input": {"path": "a.txt"}}},
        ],
    }
    assert sent[1]["messages"][2] == {
        "role": "user",
        "content": [
            {
                "toolResult": {
                    "toolUseId": "tooluse_1",
                    "content": [{"text": "hi"}],
                    "status": "success",
                }
            }
        ],
    }
    assert sent[0]["toolConfig"]["tools"][0]["toolSpec"]["name"] == "read"
    assert server.requests[0].path == "/model/amazon.nova-micro-v1%3A0/converse-stream"
    assert server.requests[0].headers["authorization"] == "Bearer test-token"


async def test_http_throttling_keeps_the_delay_and_is_retryable() -> None:
    body = {"message": "Too many requests, please wait before trying again."}
    with FakeLLMServer() as server:
        server.queue(FakeResponse.json_body(body, status=429, headers={"retry-after": "7"}))
        final = (await run(server))[-1]
    message = final.error
    assert message.error_message == (
        "Throttling error: Too many requests, please wait before trying again. (retry after 7 s)"
    )
    assert retry_after_ms(message) == 7000 and classify_error(message) == "retryable"


async def test_exception_mid_stream_keeps_the_text_and_says_what_failed() -> None:
    frames = [
        event("messageStart", {"role": "assistant"}),
        event("contentBlockDelta", {"contentBlockIndex": 0, "delta": {"text": "Hello "}}),
        exception("throttlingException", "Too many tokens, please wait before trying again."),
    ]
    with FakeLLMServer() as server:
        server.queue(stream(frames))
        final = (await run(server))[-1]
    message = final.error
    assert final.type == "error" and message.content[0].text == "Hello "
    assert message.error_message == (
        "Throttling error: Too many tokens, please wait before trying again."
    )
    assert not is_context_overflow(message)  # "too many tokens" from throttling is no overflow


async def test_validation_exception_mid_stream_with_overflow_text_compacts() -> None:
    frames = [
        event("messageStart", {"role": "assistant"}),
        exception("validationException", "Input is too long for requested model."),
    ]
    with FakeLLMServer() as server:
        server.queue(stream(frames))
        final = (await run(server))[-1]
    assert final.error.error_message == "Validation error: Input is too long for requested model."
    assert classify_error(final.error) == "context_overflow"


async def test_recorded_http_errors_are_worded_as_pi_words_them() -> None:
    with FakeLLMServer() as server:
        server.queue(
            replay_error("ruby_llm__context_length_exceeded__0"),
            replay_error("pydantic-ai__test_bedrock_streaming_error__0"),
        )
        overflow, unknown = [(await run(server))[-1].error for _ in range(2)]
    assert overflow.error_message.startswith(
        "Validation error: The model returned the following errors: Input Tokens Exceeded"
    )
    # as in pi 0.73.1, whose overflow patterns do not know Nova's wording (Claude's do match)
    assert classify_error(overflow) == "fatal"
    assert unknown.error_message == "Validation error: The provided model identifier is invalid."
    assert classify_error(unknown) == "fatal"


async def test_abort_mid_stream_keeps_what_arrived() -> None:
    controller = AbortController()
    frames = turn(text_frames([f"w{i} " for i in range(50)]))
    with FakeLLMServer() as server:
        response = stream(frames, pause_after_chunks=3)
        server.queue(response)
        events = []
        options = StreamOptions(max_retries=0, signal=controller.signal)
        async for item in stream_converse(model_at(server), CONTEXT, options):
            events.append(item)
            if item.type == "text_delta":  # the first delta reached us: abort while it streams
                controller.abort()
    final = events[-1]
    assert final.type == "error" and final.error.stop_reason == "aborted"
    assert final.error.content[0].text.startswith("w0 ")
    assert len(final.error.content[0].text.split()) < 50


@pytest.mark.parametrize(
    ("reason", "stop"),
    [("end_turn", "stop"), ("stop_sequence", "stop"), ("max_tokens", "length"),
     ("model_context_window_exceeded", "length"), ("tool_use", "toolUse")],
)  # fmt: skip
async def test_stop_reasons_map_as_pi_maps_them(reason: str, stop: str) -> None:
    with FakeLLMServer() as server:
        server.queue(stream(turn(text_frames(["x"]), stop=reason)))
        final = (await run(server))[-1]
    assert final.type == "done" and final.message.stop_reason == stop


async def test_guardrail_stop_and_a_cut_stream_are_errors() -> None:
    usage = {"inputTokens": 3, "outputTokens": 1, "cacheReadInputTokens": 40,
             "cacheWriteInputTokens": 9, "totalTokens": 53}  # fmt: skip
    with FakeLLMServer() as server:
        server.queue(
            stream(turn(text_frames(["x"]), stop="guardrail_intervened", usage=usage)),
            stream(turn(text_frames(["partial"]))[:2]),
        )
        guarded, cut = [(await run(server))[-1] for _ in range(2)]
    assert guarded.error.error_message == "An unknown error occurred"
    assert (guarded.error.usage.cache_read, guarded.error.usage.cache_write) == (40, 9)
    assert cut.error.content[0].text == "partial"
    assert classify_error(cut.error) == "retryable"  # "Connection lost…"


async def test_a_frame_with_a_bad_crc_fails_the_response() -> None:
    good = text_frames(["fine "])
    bad = bytearray(event("contentBlockDelta", {"contentBlockIndex": 0, "delta": {"text": "x"}}))
    bad[-1] ^= 0xFF
    with FakeLLMServer() as server:
        server.queue(stream([event("messageStart", {"role": "assistant"}), good[0], bytes(bad)]))
        final = (await run(server))[-1]
    assert final.type == "error" and final.error.content[0].text == "fine "
    assert "checksum" in json.dumps(final.error.error_message).lower() or "crc" in (
        final.error.error_message.lower()
    )


async def test_usage_with_cache_counts_costs_the_model_prices() -> None:
    from pi_core.ai.model import ModelCost

    usage = {"inputTokens": 1_000_000, "outputTokens": 2_000_000, "cacheReadInputTokens": 500_000,
             "cacheWriteInputTokens": 100_000, "totalTokens": 3_600_000}  # fmt: skip
    with FakeLLMServer() as server:
        server.queue(stream(turn(text_frames(["x"]), usage=usage)))
        model = model_at(server).model_copy(
            update={"cost": ModelCost(input=3, output=15, cache_read=0.3, cache_write=3.75)}
        )
        events = [e async for e in stream_converse(model, CONTEXT, StreamOptions(max_retries=0))]
    message = events[-1].message
    assert (message.usage.cache_read, message.usage.cache_write) == (500_000, 100_000)
    assert message.usage.total_tokens == 3_600_000
    assert message.usage.cost.total == pytest.approx(3 + 30 + 0.15 + 0.375)
