"""Turning pi's context into a Chat Completions request body."""

from __future__ import annotations

import json
import re
from functools import partial
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
    PrefixCache,
    StreamOptions,
    clamp_thinking_level,
    json_bytes,
    transform_messages,
)
from pi_plugin_openai.completions_images import tool_images_message, tool_result_images


def compat(model: Model, key: str, default: Any) -> Any:
    """Return a `compat` flag of the model (pi's camelCase names), or `default`."""
    return (model.compat or {}).get(key, default)


def _user_content(message: UserMessage) -> str | list[dict[str, Any]]:
    if isinstance(message.content, str):
        return message.content
    parts: list[dict[str, Any]] = []
    for block in message.content:
        if isinstance(block, TextContent):
            parts.append({"type": "text", "text": block.text})
        elif isinstance(block, ImageContent):
            url = f"data:{block.mime_type};base64,{block.data}"
            parts.append({"type": "image_url", "image_url": {"url": url}})
    return parts


def _assistant(model: Model, message: AssistantMessage) -> dict[str, Any] | None:
    texts: list[str] = []
    calls: list[dict[str, Any]] = []
    as_text = compat(model, "requiresThinkingAsText", False)
    for block in message.content:
        if isinstance(block, TextContent) and block.text:
            texts.append(block.text)
        elif isinstance(block, ThinkingContent) and as_text and block.thinking:
            texts.append(f"<thinking>\n{block.thinking}\n</thinking>")
        elif isinstance(block, ToolCall):
            calls.append(
                {
                    "id": block.id,
                    "type": "function",
                    "function": {"name": block.name, "arguments": json.dumps(block.arguments)},
                }
            )
    if not texts and not calls:
        return None
    result: dict[str, Any] = {"role": "assistant", "content": "".join(texts) or None}
    if calls:
        result["tool_calls"] = calls
    return result


def _tool_result(model: Model, message: ToolResultMessage) -> dict[str, Any]:
    text = "\n".join(b.text for b in message.content if isinstance(b, TextContent))
    result: dict[str, Any] = {
        "role": "tool",
        "tool_call_id": message.tool_call_id,
        "content": text or ("(error)" if message.is_error else "(no output)"),
    }
    if compat(model, "requiresToolResultName", False):
        result["name"] = message.tool_name
    return result


def normalize_tool_call_id(call_id: str, model: Model, source: AssistantMessage) -> str:
    """Another model's tool-call id as Chat Completions takes it (pi's rule: `call|item` ids keep
    the call part, at most 40 safe characters; OpenAI's own ids at most 40)."""
    if "|" in call_id:
        return re.sub(r"[^a-zA-Z0-9_-]", "_", call_id.split("|", 1)[0])[:40]
    if model.provider == "openai":
        return call_id[:40]
    return call_id


_CONVERTED: MessageCache[tuple[dict[str, Any] | None, bytes]] = MessageCache()
"""Each message's Chat Completions form and its JSON (read-only: request bodies share them)."""


def _convert(model: Model, message: Any) -> dict[str, Any] | None:
    if isinstance(message, UserMessage):
        return {"role": "user", "content": _user_content(message)}
    if isinstance(message, AssistantMessage):
        return _assistant(model, message)
    if isinstance(message, ToolResultMessage):
        return _tool_result(model, message)
    return None


def _convert_and_encode(model: Model, message: Any) -> tuple[dict[str, Any] | None, bytes]:
    converted = _convert(model, message)
    return converted, json_bytes(converted) if converted is not None else b""


_Converted = tuple[list[dict[str, Any]], list[bytes]]
_PREFIXES: PrefixCache[_Converted] = PrefixCache()
"""The previous request's converted messages and their JSON pieces (each message's bytes, with
commas between), by model and variant."""
_COMMA = b","


def build_messages(
    model: Model, context: LLMContext, parts: EncodedParts | None = None
) -> list[dict[str, Any]]:
    """Convert the system prompt and messages to Chat Completions messages; `parts` (if given)
    gets the list's JSON, made mostly of the previous request's."""
    variant = (
        compat(model, "requiresThinkingAsText", False),
        compat(model, "requiresToolResultName", False),
    )
    transformed = transform_messages(context.messages, model, normalize_tool_call_id)
    key = (model.provider, model.api, model.id, variant)
    start, saved = _PREFIXES.resume(key, transformed)
    converted_all = list(saved[0]) if saved is not None else []
    pieces = list(saved[1]) if saved is not None else []
    get, convert = _CONVERTED.get, partial(_convert_and_encode, model)

    def add(converted: dict[str, Any], encoded: bytes) -> None:
        converted_all.append(converted)
        if pieces:
            pieces.append(_COMMA)
        pieces.append(encoded)

    images: list[dict[str, Any]] = []  # of the current run of tool results
    for message in transformed[start:]:
        if images and not isinstance(message, ToolResultMessage):
            add(extra := tool_images_message(images), json_bytes(extra))
            images = []
        converted, encoded = get(message, variant, convert)
        if converted is not None:
            add(converted, encoded)
        if isinstance(message, ToolResultMessage):
            images += tool_result_images(model, message)
    if images:
        add(extra := tool_images_message(images), json_bytes(extra))
    _PREFIXES.save(key, transformed, (converted_all, pieces))
    messages: list[dict[str, Any]] = []
    head = [b"["]
    if context.system_prompt:
        developer = model.reasoning and compat(model, "supportsDeveloperRole", True)
        system = {"role": "developer" if developer else "system", "content": context.system_prompt}
        messages.append(system)
        head.append(json_bytes(system))
        if pieces:
            head.append(_COMMA)
    messages.extend(converted_all)
    if parts is not None:
        parts.add(messages, [*head, *pieces, b"]"])
    return messages


def build_payload(
    model: Model,
    context: LLMContext,
    options: StreamOptions,
    parts: EncodedParts | None = None,
) -> dict[str, Any]:
    """Return the request body: model, messages, tools, token limit, usage and reasoning options
    (`parts` as for `build_messages`)."""
    payload: dict[str, Any] = {
        "model": model.id,
        "messages": build_messages(model, context, parts),
        "stream": True,
    }
    if compat(model, "supportsUsageInStreaming", True):
        payload["stream_options"] = {"include_usage": True}
    if context.tools:
        payload["tools"] = [
            {
                "type": "function",
                "function": {
                    "name": tool.name,
                    "description": tool.description,
                    "parameters": tool.parameters,
                },
            }
            for tool in context.tools
        ]
    if options.max_tokens:
        field = compat(model, "maxTokensField", "max_completion_tokens")
        payload[field] = options.max_tokens
    if options.temperature is not None:
        payload["temperature"] = options.temperature
    if options.reasoning and model.reasoning and compat(model, "supportsReasoningEffort", True):
        level = clamp_thinking_level(model, options.reasoning)  # pi: the model's own name for it
        if level != "off":
            payload["reasoning_effort"] = (model.thinking_level_map or {}).get(level) or level
    return payload
