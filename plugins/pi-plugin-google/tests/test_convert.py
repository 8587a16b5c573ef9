"""The request body as pi 0.73.1 builds it: thinking per model family, images, tool results and
the ids some models behind Google's APIs need."""

from __future__ import annotations

from typing import Any

import pytest
from google_run import gemini_model, vertex_model
from pi_plugin_google.convert import build_payload
from pi_plugin_google.thinking import thinking_config

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
from pi_core.providers import EncodedParts

PNG = ImageContent(data="iVBORw0KGgo=", mime_type="image/png")
INLINE = {"inlineData": {"mimeType": "image/png", "data": "iVBORw0KGgo="}}


@pytest.mark.parametrize(
    ("model_id", "level", "config"),
    [
        ("gemini-2.5-pro", "minimal", {"includeThoughts": True, "thinkingBudget": 128}),
        ("gemini-2.5-pro", "high", {"includeThoughts": True, "thinkingBudget": 32768}),
        ("gemini-2.5-flash", "medium", {"includeThoughts": True, "thinkingBudget": 8192}),
        ("gemini-2.5-flash-lite", "minimal", {"includeThoughts": True, "thinkingBudget": 512}),
        ("gemini-flash-latest", "low", {"includeThoughts": True, "thinkingBudget": -1}),
        ("gemini-3-pro-preview", "minimal", {"includeThoughts": True, "thinkingLevel": "LOW"}),
        ("gemini-3.1-pro-preview", "medium", {"includeThoughts": True, "thinkingLevel": "HIGH"}),
        ("gemini-3-flash-preview", "medium", {"includeThoughts": True, "thinkingLevel": "MEDIUM"}),
        ("gemma-4-31b-it", "low", {"includeThoughts": True, "thinkingLevel": "MINIMAL"}),
        ("gemini-2.5-flash", None, {"thinkingBudget": 0}),
        ("gemini-3-pro-preview", None, {"thinkingLevel": "LOW"}),
        ("gemini-3-flash-preview", None, {"thinkingLevel": "MINIMAL"}),
        ("gemma-4-31b-it", None, {"thinkingLevel": "MINIMAL"}),
    ],
)
def test_thinking_levels_map_as_pi_maps_them(
    model_id: str, level: str | None, config: dict[str, Any]
) -> None:
    assert thinking_config(gemini_model("", model_id), level) == config


def test_vertex_has_no_flash_lite_budgets_or_gemma_levels_as_in_pi() -> None:
    lite = vertex_model("", "gemini-2.5-flash-lite")
    assert thinking_config(lite, "minimal") == {"includeThoughts": True, "thinkingBudget": 128}
    gemma = vertex_model("", "gemma-4-31b-it")
    assert thinking_config(gemma, "low") == {"includeThoughts": True, "thinkingBudget": -1}


def test_custom_budgets_and_models_without_reasoning() -> None:
    model = gemini_model("", "gemini-2.5-pro")
    assert thinking_config(model, "low", {"low": 1000}) == {
        "includeThoughts": True,
        "thinkingBudget": 1000,
    }
    assert thinking_config(gemini_model("", "gemini-2.0-flash", reasoning=False), "high") is None


def _payload(model: Model, *messages: Any, **options: Any) -> dict[str, Any]:
    ctx = LLMContext(system_prompt="sys", messages=list(messages))
    return build_payload(model, ctx, StreamOptions(**options), EncodedParts())


def _call_and_result(image: bool) -> list[Any]:
    call = ToolCall(id="call|1", name="shot", arguments={})
    turn = AssistantMessage(
        content=[call],
        api="google-generative-ai",
        provider="google",
        model="x",
        stop_reason="toolUse",
    )
    content: list[Any] = [PNG] if image else [TextContent(text="done")]
    result = ToolResultMessage(tool_call_id="call|1", tool_name="shot", content=content)
    return [UserMessage(content="take one"), turn, result]


def test_a_tool_results_image_is_nested_on_gemini_3_and_a_user_turn_before() -> None:
    nested = _payload(gemini_model("", "gemini-3-pro-preview"), *_call_and_result(True))
    assert nested["contents"][2] == {
        "role": "user",
        "parts": [
            {
                "functionResponse": {
                    "name": "shot",
                    "response": {"output": "(see attached image)"},
                    "parts": [INLINE],
                }
            }
        ],
    }
    older = _payload(gemini_model("", "gemini-2.5-flash"), *_call_and_result(True))
    assert older["contents"][2]["parts"][0]["functionResponse"] == {
        "name": "shot",
        "response": {"output": "(see attached image)"},
    }
    assert older["contents"][3] == {
        "role": "user",
        "parts": [{"text": "Tool result image:"}, INLINE],
    }


def test_claude_behind_google_gets_safe_call_ids() -> None:
    body = _payload(gemini_model("", "claude-sonnet-4-5"), *_call_and_result(False))
    call = body["contents"][1]["parts"][0]["functionCall"]
    response = body["contents"][2]["parts"][0]["functionResponse"]
    assert call["id"] == response["id"] == "call_1"


def test_user_images_system_prompt_and_output_limit() -> None:
    user = UserMessage(content=[TextContent(text="look"), PNG])
    body = _payload(gemini_model("", "gemini-2.5-flash", max_tokens=8192), user, temperature=0.5)
    assert body["contents"] == [{"role": "user", "parts": [{"text": "look"}, INLINE]}]
    assert body["systemInstruction"] == {"role": "user", "parts": [{"text": "sys"}]}
    assert body["generationConfig"]["maxOutputTokens"] == 8192
    assert body["generationConfig"]["temperature"] == 0.5
    assert "tools" not in body


def test_an_error_result_goes_as_error_and_bad_signatures_are_dropped() -> None:
    model = gemini_model("", "gemini-3-pro-preview")
    good = ToolCall(id="a", name="read", arguments={}, thought_signature="c2ln")
    bad = ToolCall(id="b", name="read", arguments={}, thought_signature="not base64!")
    turn = AssistantMessage(
        content=[good, bad],
        api=model.api,
        provider=model.provider,
        model=model.id,
        stop_reason="toolUse",
    )
    results = [
        ToolResultMessage(
            tool_call_id=i, tool_name="read", content=[TextContent(text="no")], is_error=True
        )
        for i in ("a", "b")
    ]
    body = _payload(model, UserMessage(content="x"), turn, *results)
    assert [p.get("thoughtSignature") for p in body["contents"][1]["parts"]] == ["c2ln", None]
    assert body["contents"][2]["parts"] == [
        {"functionResponse": {"name": "read", "response": {"error": "no"}}},
        {"functionResponse": {"name": "read", "response": {"error": "no"}}},
    ]
