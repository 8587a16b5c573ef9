"""Turning pi's context into a Chat Completions request body."""

from __future__ import annotations

import json
import os
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
    ToolSpec,
    clamp_thinking_level,
    floatless_json_bytes,
    floatless_json_text,
    json_bytes,
    json_text,
    transform_messages,
)
from pi_plugin_openai.compat import resolve_compat
from pi_plugin_openai.completions_cache import add_cache_marks
from pi_plugin_openai.completions_images import tool_images_message, tool_result_images
from pi_plugin_openai.completions_thinking import thinking_fields


def compat(model: Model, key: str, default: Any = None) -> Any:
    """Return a resolved compat flag of the model (pi's camelCase names: detected from the
    provider, or the model's `compat`); `default` only for names that are not pi's flags."""
    flags = resolve_compat(model)
    return flags[key] if key in flags else (model.compat or {}).get(key, default)


def arguments_json(arguments: dict[str, Any]) -> str:
    """Tool-call arguments as JavaScript's `JSON.stringify` writes them (no spaces)."""
    if all(type(key) is str and type(value) is str for key, value in arguments.items()):
        return floatless_json_text(arguments)  # most calls: a path, a command
    return json_text(arguments)  # the same encoding, with an encoder built once


def _user_content(message: UserMessage) -> str | list[dict[str, Any]] | None:
    if isinstance(message.content, str):
        return message.content
    parts: list[dict[str, Any]] = []
    for block in message.content:
        if isinstance(block, TextContent):
            parts.append({"type": "text", "text": block.text})
        elif isinstance(block, ImageContent):
            url = f"data:{block.mime_type};base64,{block.data}"
            parts.append({"type": "image_url", "image_url": {"url": url}})
    return parts or None


def _assistant(
    model: Model, flags: dict[str, Any], message: AssistantMessage
) -> dict[str, Any] | None:
    result: dict[str, Any] = {
        "role": "assistant",
        "content": "" if flags["requiresAssistantAfterToolResult"] else None,
    }
    texts = [b.text for b in message.content if isinstance(b, TextContent) and b.text.strip()]
    text = "".join(texts)
    thoughts = [b for b in message.content if isinstance(b, ThinkingContent) and b.thinking.strip()]
    if thoughts and flags["requiresThinkingAsText"]:
        thinking = "\n\n".join(b.thinking for b in thoughts)
        parts = [{"type": "text", "text": t} for t in texts]
        result["content"] = [{"type": "text", "text": thinking}, *parts]
    else:
        if text:
            result["content"] = text
        signature = thoughts[0].thinking_signature if thoughts else None
        if signature:  # the field the reasoning came in (`reasoning_content`, …): sent back in it
            result[signature] = "\n".join(b.thinking for b in thoughts)
    calls = [b for b in message.content if isinstance(b, ToolCall)]
    if calls:
        result["tool_calls"] = [
            {
                "id": call.id,
                "type": "function",
                "function": {"name": call.name, "arguments": arguments_json(call.arguments)},
            }
            for call in calls
        ]
        details = [_detail(call.thought_signature) for call in calls if call.thought_signature]
        if any(details):
            result["reasoning_details"] = [detail for detail in details if detail]
    needs_reasoning = flags["requiresReasoningContentOnAssistantMessages"] and model.reasoning
    if needs_reasoning and "reasoning_content" not in result:
        result["reasoning_content"] = ""
    if not result["content"] and not calls:
        return None
    return result


def _detail(signature: str) -> Any:
    """An OpenRouter `reasoning_details` entry kept as a tool call's signature, or None."""
    try:
        return json.loads(signature)
    except ValueError:
        return None


def _tool_result(flags: dict[str, Any], message: ToolResultMessage) -> dict[str, Any]:
    text = "\n".join(b.text for b in message.content if isinstance(b, TextContent))
    result: dict[str, Any] = {
        "role": "tool",
        "content": text or "(see attached image)",
        "tool_call_id": message.tool_call_id,
    }
    if flags["requiresToolResultName"] and message.tool_name:
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


def _convert(model: Model, flags: dict[str, Any], message: Any) -> dict[str, Any] | None:
    if isinstance(message, UserMessage):
        content = _user_content(message)
        return None if content is None else {"role": "user", "content": content}
    if isinstance(message, AssistantMessage):
        return _assistant(model, flags, message)
    if isinstance(message, ToolResultMessage):
        return _tool_result(flags, message)
    return None


def _convert_and_encode(
    model: Model, flags: dict[str, Any], message: Any
) -> tuple[dict[str, Any] | None, bytes]:
    converted = _convert(model, flags, message)
    if converted is None:
        return None, b""
    # only `reasoning_details` (parsed from a signature) may hold a float: `json` writes those
    encode = json_bytes if "reasoning_details" in converted else floatless_json_bytes
    return converted, encode(converted)


_Converted = tuple[list[dict[str, Any]], list[bytes]]
_PREFIXES: PrefixCache[_Converted] = PrefixCache()
"""The previous request's converted messages and their JSON pieces (each message's bytes, with
commas between), by model and variant."""
_COMMA = b","
_MESSAGE_FLAGS = (
    "requiresThinkingAsText",
    "requiresToolResultName",
    "requiresAssistantAfterToolResult",
    "requiresReasoningContentOnAssistantMessages",
)
"""The compat flags that change how a message converts (part of the conversion cache's key)."""
_BRIDGE = {"role": "assistant", "content": "I have processed the tool results."}


def build_messages(
    model: Model, context: LLMContext, parts: EncodedParts | None = None
) -> list[dict[str, Any]]:
    """Convert the system prompt and messages to Chat Completions messages; `parts` (if given)
    gets the list's JSON, made mostly of the previous request's."""
    flags = resolve_compat(model)
    variant = (*(flags[name] for name in _MESSAGE_FLAGS), model.reasoning)
    transformed = transform_messages(context.messages, model, normalize_tool_call_id)
    key = (model.provider, model.api, model.id, variant)
    bridged = flags["requiresAssistantAfterToolResult"]
    start, saved = (0, None) if bridged else _PREFIXES.resume(key, transformed)
    converted_all = list(saved[0]) if saved is not None else []
    pieces = list(saved[1]) if saved is not None else []
    get, convert = _CONVERTED.get, partial(_convert_and_encode, model, flags)
    after_tool = False

    def add(converted: dict[str, Any], encoded: bytes) -> None:
        nonlocal after_tool
        if bridged and after_tool and converted["role"] == "user":
            # some providers take no user message right after tool results
            converted_all.append(_BRIDGE)
            pieces.extend([_COMMA, json_bytes(_BRIDGE)])
        after_tool = converted["role"] == "tool"
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
        developer = model.reasoning and flags["supportsDeveloperRole"]
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
    """Return the request body as pi builds it for the model's compat flags: model, messages,
    tools, token limit, usage, store, caching and thinking fields (`parts` as for
    `build_messages`)."""
    flags = resolve_compat(model)
    messages = build_messages(model, context, parts)
    retention = cache_retention()
    long_cache = retention == "long" and flags["supportsLongCacheRetention"]
    payload: dict[str, Any] = {"model": model.id, "messages": messages, "stream": True}
    if ("api.openai.com" in model.base_url or long_cache) and options.session_id:
        payload["prompt_cache_key"] = options.session_id
    if long_cache:
        payload["prompt_cache_retention"] = "24h"
    if flags["supportsUsageInStreaming"] is not False:
        payload["stream_options"] = {"include_usage": True}
    if flags["supportsStore"]:
        payload["store"] = False
    max_tokens = options.max_tokens or max(0, min(model.max_tokens, 32_000))
    if max_tokens:
        field = "max_tokens" if flags["maxTokensField"] == "max_tokens" else "max_completion_tokens"
        payload[field] = max_tokens
    if options.temperature is not None:
        payload["temperature"] = options.temperature
    if context.tools:
        payload["tools"] = [_tool(tool, flags) for tool in context.tools]
        if flags["zaiToolStream"]:
            payload["tool_stream"] = True
    elif _has_tool_history(context):
        payload["tools"] = []  # proxies to Anthropic want `tools` when the history has tool calls
    if flags["cacheControlFormat"] == "anthropic":
        mark = {"type": "ephemeral", **({"ttl": "1h"} if long_cache else {})}
        payload["messages"] = add_cache_marks(messages, payload.get("tools"), mark)
    payload.update(thinking_fields(model, flags, _level(model, options.reasoning)))
    routing = (model.compat or {}).get("openRouterRouting")
    if "openrouter.ai" in model.base_url and routing:
        payload["provider"] = routing
    gateway = {k: v for k, v in (flags["vercelGatewayRouting"] or {}).items() if k in _GATEWAY}
    if "ai-gateway.vercel.sh" in model.base_url and gateway:
        payload["providerOptions"] = {"gateway": gateway}
    return payload


_GATEWAY = ("only", "order")


def _tool(tool: ToolSpec, flags: dict[str, Any]) -> dict[str, Any]:
    function: dict[str, Any] = {
        "name": tool.name,
        "description": tool.description,
        "parameters": tool.parameters,
    }
    if flags["supportsStrictMode"] is not False:
        function["strict"] = False
    return {"type": "function", "function": function}


def _has_tool_history(context: LLMContext) -> bool:
    return any(
        isinstance(message, ToolResultMessage)
        or (
            isinstance(message, AssistantMessage)
            and any(isinstance(block, ToolCall) for block in message.content)
        )
        for message in context.messages
    )


def _level(model: Model, level: str | None) -> str | None:
    """The level clamped to those the model offers, as pi clamps it (None: off)."""
    if level is None:
        return None
    clamped = clamp_thinking_level(model, level)
    return None if clamped == "off" else clamped


def affinity_headers(model: Model, options: StreamOptions) -> dict[str, str]:
    """The session headers pi sends where `sendSessionAffinityHeaders` is on."""
    session = options.session_id
    if not session or not compat(model, "sendSessionAffinityHeaders"):
        return {}
    return {"session_id": session, "x-client-request-id": session, "x-session-affinity": session}


def cache_retention() -> str:
    """`PI_CACHE_RETENTION=long` asks for long-lived prompt caches, as in pi; else short."""
    return "long" if os.environ.get("PI_CACHE_RETENTION") == "long" else "short"
