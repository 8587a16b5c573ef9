"""The ConverseStream body as pi builds it: thinking, cache points, images, reasoning round trip."""

from __future__ import annotations

from typing import Any

import pytest
from pi_plugin_bedrock.convert import build_payload

from pi_core.ai.model import Model
from pi_core.ai.protocol import LLMContext, StreamOptions
from pi_core.messages import (
    AssistantMessage,
    ImageContent,
    TextContent,
    ThinkingContent,
    ToolResultMessage,
    UserMessage,
)

API = "bedrock-converse-stream"


def model(model_id: str, **fields: Any) -> Model:
    values: dict[str, Any] = {"reasoning": True, "max_tokens": 64000, "input": ["text", "image"]}
    return Model(id=model_id, api=API, provider="amazon-bedrock", **{**values, **fields})


SONNET_4 = model("us.anthropic.claude-sonnet-4-20250514-v1:0")
OPUS_46 = model("us.anthropic.claude-opus-4-6-v1")
NOVA = model("us.amazon.nova-pro-v1:0", reasoning=False, max_tokens=8192)
GPT_OSS = model("openai.gpt-oss-120b-1:0")
CONTEXT = LLMContext(system_prompt="sys", messages=[UserMessage(content="hi")])


def test_budget_thinking_raises_max_tokens_and_asks_for_interleaving() -> None:
    body = build_payload(SONNET_4, CONTEXT, StreamOptions(reasoning="medium"))
    assert body["inferenceConfig"] == {"maxTokens": 32000 + 8192}
    assert body["additionalModelRequestFields"] == {
        "thinking": {"type": "enabled", "budget_tokens": 8192, "display": "summarized"},
        "anthropic_beta": ["interleaved-thinking-2025-05-14"],
    }
    custom = StreamOptions(reasoning="xhigh", thinking_budgets={"high": 5000}, max_tokens=100)
    body = build_payload(SONNET_4, CONTEXT, custom)
    assert body["additionalModelRequestFields"]["thinking"]["budget_tokens"] == 5000
    assert body["inferenceConfig"] == {"maxTokens": 5100}


def test_adaptive_models_get_an_effort_and_govcloud_no_display(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    body = build_payload(OPUS_46, CONTEXT, StreamOptions(reasoning="minimal", temperature=0.5))
    assert body["inferenceConfig"] == {"maxTokens": 32000, "temperature": 0.5}
    assert body["additionalModelRequestFields"] == {
        "thinking": {"type": "adaptive", "display": "summarized"},
        "output_config": {"effort": "low"},
    }
    monkeypatch.setenv("AWS_REGION", "us-gov-west-1")
    body = build_payload(OPUS_46, CONTEXT, StreamOptions(reasoning="high"))
    assert body["additionalModelRequestFields"]["thinking"] == {"type": "adaptive"}


def test_other_models_reason_by_themselves_and_without_thinking_nothing_is_added() -> None:
    assert "additionalModelRequestFields" not in build_payload(
        GPT_OSS, CONTEXT, StreamOptions(reasoning="high")
    )
    assert "additionalModelRequestFields" not in build_payload(SONNET_4, CONTEXT, StreamOptions())
    assert build_payload(NOVA, CONTEXT, StreamOptions())["inferenceConfig"] == {"maxTokens": 8192}


def test_cache_points_on_claude_system_and_last_user_message(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    body = build_payload(SONNET_4, CONTEXT, StreamOptions())
    point = {"cachePoint": {"type": "default"}}
    assert body["system"] == [{"text": "sys"}, point]
    assert body["messages"] == [{"role": "user", "content": [{"text": "hi"}, point]}]
    assert build_payload(NOVA, CONTEXT, StreamOptions())["system"] == [{"text": "sys"}]
    monkeypatch.setenv("PI_CACHE_RETENTION", "long")
    body = build_payload(SONNET_4, CONTEXT, StreamOptions())
    assert body["system"][1] == {"cachePoint": {"type": "default", "ttl": "1h"}}
    monkeypatch.setenv("AWS_BEDROCK_FORCE_CACHE", "1")
    assert len(build_payload(NOVA, CONTEXT, StreamOptions())["system"]) == 2


def _assistant(*blocks: Any, model_id: str = SONNET_4.id) -> AssistantMessage:
    return AssistantMessage(
        content=list(blocks), api=API, provider="amazon-bedrock", model=model_id, stop_reason="stop"
    )


def test_reasoning_round_trip_signed_redacted_and_images() -> None:
    image = ImageContent(data="aGVsbG8=", mime_type="image/png")
    signed = ThinkingContent(thinking="because", thinking_signature="sig==")
    unsigned = ThinkingContent(thinking="hmm")
    redacted = ThinkingContent(thinking="", thinking_signature="opaque", redacted=True)
    context = LLMContext(
        messages=[
            UserMessage(content=[TextContent(text="look"), image]),
            _assistant(signed, unsigned, redacted, TextContent(text="  "), TextContent(text="ok")),
            UserMessage(content="more"),
        ]
    )
    body = build_payload(NOVA, context, StreamOptions())  # no cache points on Nova
    assert body["messages"][0]["content"][1] == {
        "image": {"format": "png", "source": {"bytes": "aGVsbG8="}}
    }
    claude = build_payload(SONNET_4, context, StreamOptions())["messages"][1]["content"]
    assert claude == [
        {"reasoningContent": {"reasoningText": {"text": "because", "signature": "sig=="}}},
        {"text": "hmm"},
        {"reasoningContent": {"redactedContent": "opaque"}},
        {"text": "ok"},
    ]


def test_tool_results_of_a_turn_share_one_user_message() -> None:
    from pi_core.messages import ToolCall

    calls = [ToolCall(id=f"call|{i}", name="read", arguments={"path": str(i)}) for i in range(2)]
    results = [
        ToolResultMessage(
            tool_call_id=call.id,
            tool_name="read",
            content=[TextContent(text=f"r{i}")],
            is_error=i == 1,
        )
        for i, call in enumerate(calls)
    ]
    context = LLMContext(
        messages=[UserMessage(content="go"), _assistant(*calls, model_id="other"), *results]
    )
    body = build_payload(NOVA, context, StreamOptions())
    assert body["messages"][2] == {
        "role": "user",
        "content": [
            {
                "toolResult": {
                    "toolUseId": "call_0",
                    "content": [{"text": "r0"}],
                    "status": "success",
                }
            },
            {"toolResult": {"toolUseId": "call_1", "content": [{"text": "r1"}], "status": "error"}},
        ],
    }
