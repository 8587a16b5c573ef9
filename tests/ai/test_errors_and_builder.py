"""Error classification, cost, and the message builder's events."""

from __future__ import annotations

import pytest

from pi_core.ai.builder import AssistantMessageBuilder
from pi_core.ai.errors import classify_error
from pi_core.ai.model import Model, ModelCost
from pi_core.messages import AssistantMessage, Usage

MODEL = Model(id="m", api="x", provider="p", cost=ModelCost(input=3, output=15, cache_read=0.3))


def failed(text: str) -> AssistantMessage:
    return AssistantMessage(stop_reason="error", error_message=text)


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("429 Rate limit reached for requests", "retryable"),
        (
            '529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
            "retryable",
        ),
        ("500 Internal server error", "retryable"),
        ("Connection error.", "retryable"),
        ("read ECONNRESET: connection reset by peer", "retryable"),
        ("prompt is too long: 213462 tokens > 200000 maximum", "context_overflow"),
        ("Your input exceeds the context window of this model", "context_overflow"),
        ("ThrottlingException: Too many tokens, please wait (rate limit)", "retryable"),
        ("401 invalid x-api-key", "fatal"),
        ("400 tools.0.name: String should match pattern", "fatal"),
    ],
)
def test_classification(text: str, kind: str) -> None:
    assert classify_error(failed(text)) == kind


def test_silent_overflow_and_success() -> None:
    ok = AssistantMessage(stop_reason="stop", usage=Usage(input=100))
    assert classify_error(ok, context_window=1000) is None
    over = AssistantMessage(stop_reason="stop", usage=Usage(input=900, cache_read=200))
    assert classify_error(over, context_window=1000) == "context_overflow"


def test_builder_events_usage_and_cost() -> None:
    builder = AssistantMessageBuilder(MODEL)
    events = [builder.start()]
    index, event = builder.thinking_start()
    events += [event, builder.thinking_delta(index, "hmm"), builder.thinking_end(index, "sig-1")]
    index, event = builder.text_start()
    events += [event, builder.text_delta(index, "Hel"), builder.text_delta(index, "lo")]
    events.append(builder.text_end(index))
    index, event = builder.tool_call_start("t1", "read")
    events += [
        event,
        builder.tool_call_delta(index, '{"pa'),
        builder.tool_call_delta(index, 'th": "a"}'),
    ]
    events.append(builder.tool_call_end(index))
    builder.set_usage(input=1_000_000, output=100_000, cache_read=10)
    done = builder.done()
    events.append(done)

    assert [e.type for e in events] == [
        "start", "thinking_start", "thinking_delta", "thinking_end", "text_start", "text_delta",
        "text_delta", "text_end", "toolcall_start", "toolcall_delta", "toolcall_delta",
        "toolcall_end", "done",
    ]  # fmt: skip
    message = done.message  # type: ignore[union-attr]
    assert done.reason == "toolUse"  # type: ignore[union-attr]
    assert message.content[0].thinking == "hmm" and message.content[0].thinking_signature == "sig-1"
    assert message.content[1].text == "Hello"
    assert message.content[2].arguments == {"path": "a"}
    assert message.usage.total_tokens == 1_100_010
    assert message.usage.cost.input == pytest.approx(3.0)
    assert message.usage.cost.output == pytest.approx(1.5)
    assert message.usage.cost.total == pytest.approx(4.500003)


def test_builder_error_keeps_partial_text() -> None:
    builder = AssistantMessageBuilder(MODEL)
    builder.start()
    index, _ = builder.text_start()
    for _ in range(5000):
        builder.text_delta(index, "0123456789")
    error = builder.error("connection lost")
    assert error.error.stop_reason == "error" and error.error.error_message == "connection lost"
    assert len(error.error.content[0].text) == 50_000


def test_broken_tool_json_gives_empty_arguments() -> None:
    builder = AssistantMessageBuilder(MODEL)
    index, _ = builder.tool_call_start("t", "x")
    builder.tool_call_delta(index, '{"oops": ')
    assert builder.tool_call_end(index).tool_call.arguments == {}
