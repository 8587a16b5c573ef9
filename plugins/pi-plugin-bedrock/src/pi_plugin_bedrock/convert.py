"""pi's context as a ConverseStream request: system, messages, tools, limits, Claude thinking.

The keys come in the order pi's request has them, so the body is byte for byte what pi sends.
"""

from __future__ import annotations

import os
import re
from typing import Any

from pi_core.messages import (
    AssistantMessage,
    ImageContent,
    TextContent,
    ThinkingContent,
    ToolCall,
    ToolResultMessage,
    UserMessage,
)
from pi_core.providers import LLMContext, Model, StreamOptions, transform_messages
from pi_plugin_bedrock.endpoint import configured_region
from pi_plugin_bedrock.models import (
    adaptive_thinking,
    gov_cloud,
    is_claude,
    native_xhigh,
    prompt_caching,
)

THINKING_BUDGETS = {"minimal": 1024, "low": 2048, "medium": 8192, "high": 16384}
EFFORTS = {"minimal": "low", "low": "low", "medium": "medium", "high": "high"}
MIN_OUTPUT_TOKENS = 1024
INTERLEAVED_THINKING_BETA = "interleaved-thinking-2025-05-14"
IMAGE_FORMATS = {
    "image/jpeg": "jpeg",
    "image/jpg": "jpeg",
    "image/png": "png",
    "image/gif": "gif",
    "image/webp": "webp",
}


def normalize_tool_call_id(call_id: str, model: Model, source: AssistantMessage) -> str:
    """Another model's tool-call id as Bedrock takes it: at most 64 safe characters."""
    return re.sub(r"[^a-zA-Z0-9_-]", "_", call_id)[:64]


def cache_point() -> dict[str, Any]:
    """pi's cache point: an hour's with `PI_CACHE_RETENTION=long`, else the default."""
    if os.environ.get("PI_CACHE_RETENTION") == "long":
        return {"cachePoint": {"type": "default", "ttl": "1h"}}
    return {"cachePoint": {"type": "default"}}


def _image(block: ImageContent) -> dict[str, Any]:
    """An image block; the base64 data is what the AWS SDK sends for the image's bytes."""
    image_format = IMAGE_FORMATS.get(block.mime_type)
    if image_format is None:
        raise ValueError(f"Unknown image type: {block.mime_type}")
    return {"image": {"format": image_format, "source": {"bytes": block.data}}}


def _content(blocks: list[Any]) -> list[dict[str, Any]]:
    return [
        _image(block) if isinstance(block, ImageContent) else {"text": block.text}
        for block in blocks
        if isinstance(block, TextContent | ImageContent)
    ]


def _thinking(model: Model, block: ThinkingContent, ours: bool) -> dict[str, Any] | None:
    """Reasoning sent back: signed for Claude (unsigned Claude reasoning goes as text); Claude's
    redacted reasoning goes back as the opaque data it came as."""
    if block.redacted and block.thinking_signature and ours and is_claude(model):
        return {"reasoningContent": {"redactedContent": block.thinking_signature}}
    if not block.thinking.strip():
        return None
    if not is_claude(model):
        return {"reasoningContent": {"reasoningText": {"text": block.thinking}}}
    signature = block.thinking_signature or ""
    if not signature.strip():
        return {"text": block.thinking}
    text = {"text": block.thinking, "signature": signature}
    return {"reasoningContent": {"reasoningText": text}}


def _assistant(model: Model, message: AssistantMessage) -> list[dict[str, Any]]:
    blocks: list[dict[str, Any]] = []
    for block in message.content:
        if isinstance(block, TextContent) and block.text.strip():
            blocks.append({"text": block.text})
        elif isinstance(block, ToolCall):
            call = {"toolUseId": block.id, "name": block.name, "input": block.arguments}
            blocks.append({"toolUse": call})
        elif isinstance(block, ThinkingContent):
            converted = _thinking(model, block, message.api == model.api)
            if converted is not None:
                blocks.append(converted)
    return blocks


def _tool_result(message: ToolResultMessage) -> dict[str, Any]:
    status = "error" if message.is_error else "success"
    result = {"toolUseId": message.tool_call_id, "content": _content(message.content)}
    return {"toolResult": {**result, "status": status}}


def build_messages(model: Model, context: LLMContext, cache: bool) -> list[dict[str, Any]]:
    """Convert messages; consecutive tool results share one user message, as Bedrock requires;
    the last user message gets a cache point where the model takes one."""
    result: list[dict[str, Any]] = []
    for message in transform_messages(context.messages, model, normalize_tool_call_id):
        if isinstance(message, UserMessage):
            content = message.content
            blocks = [{"text": content}] if isinstance(content, str) else _content(content)
            result.append({"role": "user", "content": blocks})
        elif isinstance(message, AssistantMessage):
            blocks = _assistant(model, message)
            if blocks:
                result.append({"role": "assistant", "content": blocks})
        elif isinstance(message, ToolResultMessage):
            last = result[-1] if result else None
            if last and last["role"] == "user" and "toolResult" in last["content"][-1]:
                last["content"].append(_tool_result(message))
            else:
                result.append({"role": "user", "content": [_tool_result(message)]})
    if cache and result and result[-1]["role"] == "user":
        result[-1]["content"].append(cache_point())
    return result


def _system(model: Model, prompt: str | None, cache: bool) -> list[dict[str, Any]] | None:
    if not prompt:
        return None
    return [{"text": prompt}, cache_point()] if cache else [{"text": prompt}]


def _tool_config(context: LLMContext) -> dict[str, Any] | None:
    if not context.tools:
        return None
    tools = [
        {
            "toolSpec": {
                "name": tool.name,
                "inputSchema": {"json": tool.parameters},
                "description": tool.description,
            }
        }
        for tool in context.tools
    ]
    return {"tools": tools}


def _effort(model: Model, level: str) -> str:
    if level == "xhigh" and native_xhigh(model):
        return "xhigh"
    mapped = (model.thinking_level_map or {}).get(level)
    return mapped if isinstance(mapped, str) else EFFORTS.get(level, "high")


def max_tokens_and_budget(model: Model, options: StreamOptions) -> tuple[int | None, int | None]:
    """`maxTokens` as pi sets it, and the thinking budget of a budget-thinking Claude model."""
    base = options.max_tokens or (min(model.max_tokens, 32_000) if model.max_tokens else None)
    level = options.reasoning
    if not (level and is_claude(model)) or adaptive_thinking(model):
        return base, None
    budgets = {**THINKING_BUDGETS, **(options.thinking_budgets or {})}
    budget = budgets["high" if level == "xhigh" else level]
    total = min((base or 0) + budget, model.max_tokens)
    if total <= budget:
        budget = max(0, total - MIN_OUTPUT_TOKENS)
    return total, budget


def _additional_fields(
    model: Model, options: StreamOptions, budget: int | None
) -> dict[str, Any] | None:
    """Claude's thinking settings (other models reason, or not, by themselves)."""
    level = options.reasoning
    if not level or not model.reasoning or not is_claude(model):
        return None
    display = {} if gov_cloud(model, configured_region()) else {"display": "summarized"}
    if adaptive_thinking(model):
        return {
            "thinking": {"type": "adaptive", **display},
            "output_config": {"effort": _effort(model, level)},
        }
    thinking = {"type": "enabled", "budget_tokens": budget, **display}
    return {"thinking": thinking, "anthropic_beta": [INTERLEAVED_THINKING_BETA]}


def build_payload(
    model: Model, context: LLMContext, options: StreamOptions, parts: Any = None
) -> dict[str, Any]:
    """The ConverseStream input as pi builds it (with `modelId`, which goes in the path)."""
    cache = prompt_caching(model)
    max_tokens, budget = max_tokens_and_budget(model, options)
    inference: dict[str, Any] = {}
    if max_tokens is not None:
        inference["maxTokens"] = max_tokens
    if options.temperature is not None:
        inference["temperature"] = options.temperature
    payload: dict[str, Any] = {
        "modelId": model.id,
        "messages": build_messages(model, context, cache),
        "system": _system(model, context.system_prompt, cache),
        "inferenceConfig": inference,
        "toolConfig": _tool_config(context),
        "additionalModelRequestFields": _additional_fields(model, options, budget),
    }
    return {key: value for key, value in payload.items() if value is not None}
