"""Turning pi's context into a Responses API request body (`input` items, tools, reasoning)."""

from __future__ import annotations

import json
import os
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
    Model,
    PrefixCache,
    StreamOptions,
    ToolSpec,
    clamp_thinking_level,
    json_bytes,
    json_text,
    short_hash,
)
from pi_plugin_openai.convert import compat
from pi_plugin_openai.history import prepare_messages


def text_signature(item_id: str, phase: str | None) -> str:
    """Return what a text block keeps of its output message: `{"v":1,"id":…,"phase":…}`."""
    payload: dict[str, Any] = {"v": 1, "id": item_id}
    if phase:
        payload["phase"] = phase
    return json_text(payload)


def _parse_text_signature(signature: str | None) -> tuple[str | None, str | None]:
    if not signature:
        return None, None
    if signature.startswith("{"):
        try:
            parsed = json.loads(signature)
        except ValueError:
            parsed = None
        if isinstance(parsed, dict) and parsed.get("v") == 1 and isinstance(parsed.get("id"), str):
            phase = parsed.get("phase")
            return parsed["id"], phase if phase in ("commentary", "final_answer") else None
    return signature, None


def _image(block: ImageContent) -> dict[str, Any]:
    url = f"data:{block.mime_type};base64,{block.data}"
    return {"type": "input_image", "detail": "auto", "image_url": url}


def _user(message: UserMessage) -> dict[str, Any] | None:
    if isinstance(message.content, str):
        return {"role": "user", "content": [{"type": "input_text", "text": message.content}]}
    parts = [
        {"type": "input_text", "text": b.text} if isinstance(b, TextContent) else _image(b)
        for b in message.content
    ]
    return {"role": "user", "content": parts} if parts else None


def _assistant(message: AssistantMessage, model: Model, index: int) -> list[dict[str, Any]]:
    other_model = (
        message.model != model.id
        and message.provider == model.provider
        and message.api == model.api
    )  # fmt: skip
    items: list[dict[str, Any]] = []
    for block in message.content:
        if isinstance(block, ThinkingContent):
            if block.thinking_signature:
                items.append(json.loads(block.thinking_signature))
        elif isinstance(block, TextContent):
            item_id, phase = _parse_text_signature(block.text_signature)
            if not item_id:
                item_id = f"msg_{index}"
            elif len(item_id) > 64:
                item_id = f"msg_{short_hash(item_id)}"
            item: dict[str, Any] = {
                "type": "message",
                "role": "assistant",
                "content": [{"type": "output_text", "text": block.text, "annotations": []}],
                "status": "completed",
                "id": item_id,
            }
            if phase:
                item["phase"] = phase
            items.append(item)
        elif isinstance(block, ToolCall):
            call_id, _, item_id = block.id.partition("|")
            call: dict[str, Any] = {"type": "function_call"}
            # a call of another model of this API was paired with that model's reasoning items
            if item_id and not (other_model and item_id.startswith("fc_")):
                call["id"] = item_id
            call.update(call_id=call_id, name=block.name, arguments=json_text(block.arguments))
            items.append(call)
    return items


def _tool_result(message: ToolResultMessage, model: Model) -> dict[str, Any]:
    text = "\n".join(b.text for b in message.content if isinstance(b, TextContent))
    images = [b for b in message.content if isinstance(b, ImageContent)]
    output: str | list[dict[str, Any]]
    if images and "image" in model.input:
        output = [{"type": "input_text", "text": text}] if text else []
        output += [_image(b) for b in images]
    else:
        output = text or "(see attached image)"
    return {
        "type": "function_call_output",
        "call_id": message.tool_call_id.split("|")[0],
        "output": output,
    }


_Converted = tuple[list[dict[str, Any]], list[bytes], int]
_PREFIXES: PrefixCache[_Converted] = PrefixCache()
"""The previous request's input items, their JSON pieces (each item's bytes, commas between)
and the count of messages that made items, by model."""
_COMMA = b","


def _items_of(message: Any, model: Model, index: int) -> list[dict[str, Any]]:
    if isinstance(message, UserMessage):
        user = _user(message)
        return [user] if user is not None else []
    if isinstance(message, AssistantMessage):
        return _assistant(message, model, index)
    return [_tool_result(message, model)]


def build_input(
    model: Model, context: LLMContext, parts: EncodedParts | None = None, system: bool = True
) -> list[dict[str, Any]]:
    """Convert the system prompt (unless `system` is false) and messages to Responses API `input`
    items; `parts` (if given) gets the list's JSON, made mostly of the previous request's."""
    prepared = prepare_messages(context.messages, model)
    key = (model.provider, model.api, model.id, "image" in model.input)
    start, saved = _PREFIXES.resume(key, prepared)
    converted = list(saved[0]) if saved is not None else []
    pieces = list(saved[1]) if saved is not None else []
    index = saved[2] if saved is not None else 0
    for message in prepared[start:]:
        new_items = _items_of(message, model, index)
        if not new_items:
            continue
        for item in new_items:
            if pieces:
                pieces.append(_COMMA)
            pieces.append(json_bytes(item))
        converted += new_items
        index += 1
    _PREFIXES.save(key, prepared, (converted, pieces, index))
    items: list[dict[str, Any]] = []
    head = [b"["]
    if system and context.system_prompt:
        role = "developer" if model.reasoning else "system"
        prompt = {"role": role, "content": context.system_prompt}
        items.append(prompt)
        head.append(json_bytes(prompt))
        if pieces:
            head.append(_COMMA)
    items += converted
    if parts is not None:
        parts.add(items, [*head, *pieces, b"]"])
    return items


def build_tools(tools: list[ToolSpec], strict: bool | None = False) -> list[dict[str, Any]]:
    """Convert tool specs to Responses API function tools (not strict, as pi sends them)."""
    return [
        {
            "type": "function",
            "name": tool.name,
            "description": tool.description,
            "parameters": tool.parameters,
            "strict": strict,
        }
        for tool in tools
    ]


def reasoning_effort(model: Model, level: str | None) -> str | None:
    """Return the `reasoning.effort` for a thinking level, clamped to what the model supports."""
    if not level or level == "off" or not model.reasoning:
        return None
    level = clamp_thinking_level(model, level)
    if level == "off":
        return None
    mapped = (model.thinking_level_map or {}).get(level)
    return mapped if isinstance(mapped, str) else level


def build_payload(
    model: Model,
    context: LLMContext,
    options: StreamOptions,
    parts: EncodedParts | None = None,
) -> dict[str, Any]:
    """Return the request body: input items, tools, output limit, reasoning and caching options
    (`parts` as for `build_input`)."""
    payload: dict[str, Any] = {
        "model": model.id,
        "input": build_input(model, context, parts),
        "stream": True,
        "store": False,
    }
    if options.session_id:
        payload["prompt_cache_key"] = options.session_id
    long_cache = os.environ.get("PI_CACHE_RETENTION") == "long"
    if long_cache and compat(model, "supportsLongCacheRetention", True):
        payload["prompt_cache_retention"] = "24h"
    max_tokens = options.max_tokens or (min(model.max_tokens, 32_000) if model.max_tokens else 0)
    if max_tokens:
        payload["max_output_tokens"] = max_tokens
    if options.temperature is not None:
        payload["temperature"] = options.temperature
    if context.tools:
        payload["tools"] = build_tools(context.tools)
    payload.update(reasoning_fields(model, options))
    return payload


def reasoning_fields(model: Model, options: StreamOptions) -> dict[str, Any]:
    """Return `reasoning` (and `include` for the encrypted items) as pi sends them to a reasoning
    model: the level's effort, else the model's "off" effort where it has one."""
    if not model.reasoning:
        return {}
    effort = reasoning_effort(model, options.reasoning)
    levels = model.thinking_level_map or {}
    if effort:
        return {
            "reasoning": {"effort": effort, "summary": "auto"},
            "include": ["reasoning.encrypted_content"],
        }
    if "off" in levels and levels["off"] is None:
        return {}
    return {"reasoning": {"effort": levels.get("off") or "none"}}


def session_headers(model: Model, options: StreamOptions) -> dict[str, str]:
    """Return the headers pi sends with a session id (for OpenAI's prompt-cache routing)."""
    if not options.session_id:
        return {}
    headers = {"x-client-request-id": options.session_id}
    if compat(model, "sendSessionIdHeader", True):
        headers["session_id"] = options.session_id
    return headers
