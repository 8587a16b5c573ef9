"""The Gemini stream against the loopback fake: a tool loop with thought signatures, HTTP errors
with their delay, an error inside the stream, context overflow, a cut connection and abort."""

from __future__ import annotations

import json

from gemini_fake import USAGE, chunk, reply, stream
from google_run import collect, context, gemini_model
from pi_plugin_google.stream import stream_gemini

from pi_core.abort import AbortController
from pi_core.ai.errors import classify_error, is_context_overflow, retry_after_ms
from pi_core.ai.protocol import LLMContext, StreamOptions, ToolSpec
from pi_core.messages import TextContent, ToolCall, ToolResultMessage, UserMessage
from pi_core.testing import FakeLLMServer, FakeResponse

READ = ToolSpec(
    "read",
    "Read a file.",
    {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]},
)
SIGNATURE = "c2lnbmF0dXJlLTE="


async def test_a_tool_loop_sends_the_result_and_the_call_signature_back() -> None:
    model_id = "gemini-3-pro-preview"
    with FakeLLMServer() as server:
        model = gemini_model(server.base_url, model_id)
        server.queue(
            reply(thought="Reading.", calls=(("read", {"path": "a.txt"}),), signature=SIGNATURE),
            reply("It says hi."),
        )
        ctx = LLMContext(messages=[UserMessage(content="Read a.txt")], tools=[READ])
        events, first = await collect(model, ctx, reasoning="high")
        assert first.stop_reason == "toolUse"
        call = next(b for b in first.content if isinstance(b, ToolCall))
        assert call.name == "read" and call.arguments == {"path": "a.txt"}
        assert call.id.startswith("read_")  # Gemini sent no id: one is made, as pi makes it
        assert call.thought_signature == SIGNATURE
        deltas = [e.delta for e in events if e.type == "toolcall_delta"]
        assert deltas == ['{"path":"a.txt"}']  # compact, as JSON.stringify writes it
        kinds = [e.type for e in events]
        assert kinds.index("thinking_end") < kinds.index("toolcall_start")
        result = ToolResultMessage(
            tool_call_id=call.id, tool_name="read", content=[TextContent(text="hi")]
        )
        ctx.messages += [first, result]
        _, second = await collect(model, ctx, reasoning="high")
        assert second.stop_reason == "stop"
        assert "".join(b.text for b in second.content if isinstance(b, TextContent)) == (
            "It says hi."
        )
        body = server.requests[1].json()
    assert body["contents"][1] == {
        "role": "model",
        "parts": [
            {"thought": True, "text": "Reading."},
            {
                "functionCall": {"name": "read", "args": {"path": "a.txt"}},
                "thoughtSignature": SIGNATURE,
            },
        ],
    }
    assert body["contents"][2] == {
        "role": "user",
        "parts": [{"functionResponse": {"name": "read", "response": {"output": "hi"}}}],
    }
    assert body["generationConfig"]["thinkingConfig"] == {
        "includeThoughts": True,
        "thinkingLevel": "HIGH",
    }


async def test_another_models_turn_goes_without_signatures_and_thinking_as_text() -> None:
    with FakeLLMServer() as server:
        server.queue(reply(thought="Hmm.", calls=(("read", {"path": "a"}),), signature=SIGNATURE))
        ctx = LLMContext(messages=[UserMessage(content="go")], tools=[READ])
        _, first = await collect(gemini_model(server.base_url, "gemini-3-pro-preview"), ctx)
        call = next(b for b in first.content if isinstance(b, ToolCall))
        result = ToolResultMessage(
            tool_call_id=call.id, tool_name="read", content=[TextContent(text="x")]
        )
        ctx.messages += [first, result]
        server.queue(reply("ok"))
        await collect(gemini_model(server.base_url, "gemini-2.5-flash"), ctx)
        body = server.requests[1].json()
    assert body["contents"][1]["parts"] == [
        {"text": "Hmm."},
        {"functionCall": {"name": "read", "args": {"path": "a"}}},
    ]


async def test_usage_maps_cached_and_thought_tokens_as_pi_does() -> None:
    with FakeLLMServer() as server:
        server.queue(reply("Hello there"))
        _, message = await collect(gemini_model(server.base_url))
    # promptTokenCount 120 of which 20 cached; 7 candidate + 5 thought tokens
    assert (message.usage.input, message.usage.output, message.usage.cache_read) == (100, 12, 20)
    assert message.response_id == "resp-1"


async def test_http_429_carries_the_retry_after_header_delay() -> None:
    body = {
        "error": {"code": 429, "message": "Resource exhausted.", "status": "RESOURCE_EXHAUSTED"}
    }
    with FakeLLMServer() as server:
        server.queue(FakeResponse.json_body(body, status=429, headers={"Retry-After": "7"}))
        _, message = await collect(gemini_model(server.base_url))
    assert message.stop_reason == "error"
    assert message.error_message == f"429 {json.dumps(body)} (retry after 7 s)"
    assert retry_after_ms(message) == 7000
    assert classify_error(message) == "retryable"


async def test_an_error_inside_the_stream_keeps_the_partial_text() -> None:
    error = {"error": {"code": 503, "message": "The model is overloaded.", "status": "UNAVAILABLE"}}
    with FakeLLMServer() as server:
        server.queue(stream(chunk([{"text": "Hello "}]), error))
        events, message = await collect(gemini_model(server.base_url))
    assert events[-1].type == "error"
    assert message.content[0] == TextContent(text="Hello ")
    assert message.error_message == json.dumps(error)
    assert classify_error(message) == "retryable"


async def test_input_over_the_window_is_a_context_overflow() -> None:
    body = {
        "error": {
            "code": 400,
            "message": "The input token count (1200000) exceeds the maximum number of tokens "
            "allowed (1048576).",
            "status": "INVALID_ARGUMENT",
        }
    }
    with FakeLLMServer() as server:
        server.queue(FakeResponse.json_body(body, status=400))
        _, message = await collect(gemini_model(server.base_url))
    assert is_context_overflow(message)
    assert classify_error(message) == "context_overflow"


async def test_a_stream_cut_before_its_finish_reason_is_a_retryable_lost_connection() -> None:
    with FakeLLMServer() as server:
        server.queue(stream(chunk([{"text": "Hel"}]), chunk([{"text": "lo"}])))
        _, message = await collect(gemini_model(server.base_url))
    assert message.stop_reason == "error"
    assert (message.error_message or "").startswith("Connection lost")
    assert message.content[0] == TextContent(text="Hello")
    assert classify_error(message) == "retryable"


async def test_max_tokens_is_length() -> None:
    with FakeLLMServer() as server:
        server.queue(stream(chunk([{"text": "Cut"}], finish="MAX_TOKENS", usage=USAGE)))
        _, message = await collect(gemini_model(server.base_url))
    assert message.stop_reason == "length"


async def test_abort_mid_stream_stops_reading_and_keeps_what_arrived() -> None:
    controller = AbortController()
    response = stream(
        chunk([{"text": "first "}]),
        chunk([{"text": "second"}], finish="STOP"),
        pause_after_chunks=1,
    )
    with FakeLLMServer() as server:
        server.queue(response)
        opts_model = gemini_model(server.base_url)
        options = StreamOptions(api_key="k", signal=controller.signal, max_retries=0)
        events = []
        async for event in stream_gemini(opts_model, context(), options):
            events.append(event)
            if event.type == "text_delta":  # the first delta reached us: abort mid-stream
                controller.abort()
        response.resume()
    final = events[-1]
    assert final.type == "error" and final.error.stop_reason == "aborted"
    assert final.error.content[0] == TextContent(text="first ")


async def test_tool_call_ids_given_by_the_model_are_kept_and_duplicates_replaced() -> None:
    parts = [
        {"functionCall": {"id": "call-1", "name": "read", "args": {"path": "a"}}},
        {"functionCall": {"id": "call-1", "name": "read", "args": {"path": "b"}}},
    ]
    with FakeLLMServer() as server:
        server.queue(stream(chunk(parts, finish="STOP")))
        _, message = await collect(gemini_model(server.base_url))
    ids = [b.id for b in message.content if isinstance(b, ToolCall)]
    assert ids[0] == "call-1" and ids[1].startswith("read_") and ids[1] != "call-1"


async def test_a_blocked_prompt_is_an_error_naming_the_block_reason() -> None:
    blocked = {"promptFeedback": {"blockReason": "PROHIBITED_CONTENT"}, "usageMetadata": USAGE}
    with FakeLLMServer() as server:
        server.queue(stream(blocked))
        _, message = await collect(gemini_model(server.base_url))
    assert message.stop_reason == "error"
    assert message.error_message == "The prompt was blocked (blockReason: PROHIBITED_CONTENT)"
    assert classify_error(message) == "fatal"
