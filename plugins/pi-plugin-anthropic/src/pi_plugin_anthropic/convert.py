"""Turning pi's context into an Anthropic Messages request body."""

from __future__ import annotations

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
from pi_core.providers import (
    EncodedParts,
    LLMContext,
    MessageCache,
    Model,
    StreamOptions,
    json_bytes,
    transform_messages,
)

THINKING_BUDGETS = {"minimal": 1024, "low": 2048, "medium": 8192, "high": 16384}
EFFORTS = {"minimal": "low", "low": "low", "medium": "medium", "high": "high", "xhigh": "high"}
ADAPTIVE_MODELS = ("opus-4-6", "opus-4.6", "opus-4-7", "opus-4.7", "sonnet-4-6", "sonnet-4.6")
MIN_OUTPUT_TOKENS = 1024
CACHE = {"type": "ephemeral"}


def _thinking(model: Model, options: StreamOptions, max_tokens: int) -> dict[str, Any]:
    """Adaptive thinking with an effort on 4.6+ models, a token budget on older ones (as pi)."""
    level = options.reasoning or "medium"
    if any(marker in model.id for marker in ADAPTIVE_MODELS):
        return {
            "thinking": {"type": "adaptive", "display": "summarized"},
            "output_config": {"effort": EFFORTS.get(level, "high")},
        }
    budgets = {**THINKING_BUDGETS, **(options.thinking_budgets or {})}
    budget = budgets.get("high" if level == "xhigh" else level, THINKING_BUDGETS["medium"])
    total = min(max_tokens + budget, model.max_tokens) if model.max_tokens else max_tokens + budget
    if total <= budget:
        budget = max(0, total - MIN_OUTPUT_TOKENS)
    return {
        "max_tokens": total,
        "thinking": {"type": "enabled", "budget_tokens": budget, "display": "summarized"},
    }


def _user_blocks(content: str | list[Any]) -> list[dict[str, Any]]:
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    blocks: list[dict[str, Any]] = []
    for block in content:
        if isinstance(block, TextContent):
            blocks.append({"type": "text", "text": block.text})
        elif isinstance(block, ImageContent):
            source = {"type": "base64", "media_type": block.mime_type, "data": block.data}
            blocks.append({"type": "image", "source": source})
    return blocks


def _assistant_blocks(message: AssistantMessage) -> list[dict[str, Any]]:
    same_provider = message.api == "anthropic-messages"
    blocks: list[dict[str, Any]] = []
    for block in message.content:
        if isinstance(block, TextContent) and block.text:
            blocks.append({"type": "text", "text": block.text})
        elif isinstance(block, ThinkingContent):
            if block.redacted and block.thinking_signature and same_provider:
                blocks.append({"type": "redacted_thinking", "data": block.thinking_signature})
            elif block.thinking_signature and same_provider:
                blocks.append(
                    {"type": "thinking", "thinking": block.thinking,
                     "signature": block.thinking_signature}
                )  # fmt: skip
            elif block.thinking:  # unsigned reasoning from another provider: keep it as text
                blocks.append({"type": "text", "text": block.thinking})
        elif isinstance(block, ToolCall):
            blocks.append(
                {"type": "tool_use", "id": block.id, "name": block.name, "input": block.arguments}
            )
    return blocks


def _tool_result(message: ToolResultMessage) -> dict[str, Any]:
    content = _user_blocks(message.content) or [{"type": "text", "text": "(no output)"}]
    return {
        "type": "tool_result",
        "tool_use_id": message.tool_call_id,
        "content": content,
        "is_error": message.is_error,
    }


_BLOCKS: MessageCache[tuple[Any, tuple[tuple[dict[str, Any], bytes], ...]]] = MessageCache()
"""Each message's blocks (a tool result: its one block) and each block's JSON text, read-only:
request bodies share them."""


def _blocks_of(message: Any) -> Any:
    if isinstance(message, UserMessage):
        return _user_blocks(message.content)
    if isinstance(message, AssistantMessage):
        return _assistant_blocks(message)
    if isinstance(message, ToolResultMessage):
        return _tool_result(message)
    return None


def _blocks_and_texts(message: Any) -> tuple[Any, tuple[tuple[dict[str, Any], bytes], ...]]:
    converted = _blocks_of(message)
    blocks = converted if isinstance(converted, list) else [converted] if converted else []
    return converted, tuple((block, json_bytes(block)) for block in blocks)


def normalize_tool_call_id(call_id: str, model: Model, source: AssistantMessage) -> str:
    """Another model's tool-call id as the Messages API takes it: at most 64 safe characters."""
    return re.sub(r"[^a-zA-Z0-9_-]", "_", call_id)[:64]


def build_messages(
    model: Model, context: LLMContext, parts: EncodedParts | None = None
) -> list[dict[str, Any]]:
    """Convert messages; consecutive tool results share one user message, as the API requires.
    `parts` (if given) gets the JSON text of each block converted by an earlier request."""
    messages: list[dict[str, Any]] = []
    for message in transform_messages(context.messages, model, normalize_tool_call_id):
        converted, texts = _BLOCKS.get(message, None, _blocks_and_texts)
        if parts is not None:
            for block, encoded in texts:
                parts.add(block, [encoded])
        if isinstance(message, UserMessage):
            messages.append({"role": "user", "content": list(converted)})
        elif isinstance(message, AssistantMessage):
            if converted:
                messages.append({"role": "assistant", "content": list(converted)})
        elif isinstance(message, ToolResultMessage):
            last = messages[-1] if messages else None
            if last and last["role"] == "user" and last["content"][-1]["type"] == "tool_result":
                last["content"].append(converted)
            else:
                messages.append({"role": "user", "content": [converted]})
    for message in reversed(messages):  # cache up to the last user turn
        if message["role"] == "user" and message["content"]:
            message["content"][-1] = {**message["content"][-1], "cache_control": CACHE}
            break
    return messages


def build_payload(
    model: Model,
    context: LLMContext,
    options: StreamOptions,
    parts: EncodedParts | None = None,
) -> dict[str, Any]:
    """Return the request body: system (cached), messages, tools, token limit, thinking
    (`parts` as for `build_messages`)."""
    payload: dict[str, Any] = {
        "model": model.id,
        "messages": build_messages(model, context, parts),
        "max_tokens": options.max_tokens or min(model.max_tokens or 32_000, 32_000),
        "stream": True,
    }
    if context.system_prompt:
        payload["system"] = [
            {"type": "text", "text": context.system_prompt, "cache_control": CACHE}
        ]
    if context.tools:
        payload["tools"] = [
            {"name": t.name, "description": t.description, "input_schema": t.parameters}
            for t in context.tools
        ]
    if model.reasoning and options.reasoning:
        payload.update(_thinking(model, options, payload["max_tokens"]))
    else:
        if model.reasoning:
            payload["thinking"] = {"type": "disabled"}
        if options.temperature is not None:
            payload["temperature"] = options.temperature
    return payload
