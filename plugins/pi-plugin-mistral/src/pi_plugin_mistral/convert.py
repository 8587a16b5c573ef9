"""pi's context as a Mistral chat request body, field for field what pi's Mistral SDK sends.

The keys come in the order the SDK writes them (`model`, `temperature`, `max_tokens`, `stream`,
`messages`, `tools`, `reasoning_effort`, `prompt_mode`), assistant tool calls carry the SDK's
default `index: 0` and messages its default `prefix: false`.
"""

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
    LLMContext,
    LLMMessage,
    Model,
    StreamOptions,
    ToolSpec,
    clamp_thinking_level,
    json_text,
    transform_messages,
)
from pi_plugin_mistral.ids import normalize_call_id

NO_IMAGES = "(image omitted: model does not support images)"
_LONE_SURROGATE = re.compile(r"[\ud800-\udfff]")
EFFORT_MODELS = frozenset({"mistral-small-2603", "mistral-small-latest", "mistral-medium-3.5"})
"""Models asked to think with `reasoning_effort`; pi's other reasoning models get
`prompt_mode: reasoning`."""


def clean(text: str) -> str:
    """`text` without unpaired surrogates, which the API cannot take (pi drops them too)."""
    return _LONE_SURROGATE.sub("", text) if _LONE_SURROGATE.search(text) else text


def _image(block: ImageContent) -> dict[str, Any]:
    return {"type": "image_url", "image_url": f"data:{block.mime_type};base64,{block.data}"}


def _user(message: UserMessage, images: bool) -> dict[str, Any] | None:
    if isinstance(message.content, str):
        return {"role": "user", "content": clean(message.content)}
    parts: list[dict[str, Any]] = []
    had_images = False
    for block in message.content:
        if isinstance(block, TextContent):
            parts.append({"type": "text", "text": clean(block.text)})
        else:
            had_images = True
            if images:
                parts.append(_image(block))
    if parts:
        return {"role": "user", "content": parts}
    return {"role": "user", "content": NO_IMAGES} if had_images else None


def _assistant(message: AssistantMessage) -> dict[str, Any] | None:
    parts: list[dict[str, Any]] = []
    calls: list[dict[str, Any]] = []
    for block in message.content:
        if isinstance(block, TextContent):
            if block.text.strip():
                parts.append({"type": "text", "text": clean(block.text)})
        elif isinstance(block, ThinkingContent):
            if block.thinking.strip():
                thought = [{"type": "text", "text": clean(block.thinking)}]
                parts.append({"type": "thinking", "thinking": thought})
        elif isinstance(block, ToolCall):
            function = {"name": block.name, "arguments": json_text(block.arguments or {})}
            calls.append({"id": block.id, "type": "function", "function": function, "index": 0})
    if not parts and not calls:
        return None
    result: dict[str, Any] = {"role": "assistant"}
    if parts:
        result["content"] = parts
    if calls:
        result["tool_calls"] = calls
    result["prefix"] = False
    return result


def tool_result_text(text: str, has_images: bool, images: bool, is_error: bool) -> str:
    """The text part of a tool result, as pi words it (errors marked, empty results named)."""
    trimmed = text.strip()
    error = "[tool error] " if is_error else ""
    if trimmed:
        omitted = "\n[tool image omitted: model does not support images]"
        return f"{error}{trimmed}{omitted if has_images and not images else ''}"
    if has_images:
        return f"{error}(see attached image)" if images else f"{error}{NO_IMAGES}"
    return f"{error}(no tool output)"


def _tool_result(message: ToolResultMessage, images: bool) -> dict[str, Any]:
    texts = [clean(b.text) for b in message.content if isinstance(b, TextContent)]
    pictures = [b for b in message.content if isinstance(b, ImageContent)]
    text = tool_result_text("\n".join(texts), bool(pictures), images, message.is_error)
    content = [{"type": "text", "text": text}]
    if images:
        content += [_image(block) for block in pictures]
    return {
        "role": "tool",
        "content": content,
        "tool_call_id": message.tool_call_id,
        "name": message.tool_name,
    }


def build_messages(model: Model, context: LLMContext) -> list[dict[str, Any]]:
    """The `messages` of the request: the system prompt, then the conversation."""
    images = "image" in model.input
    messages: list[dict[str, Any]] = []
    if context.system_prompt:
        messages.append({"role": "system", "content": clean(context.system_prompt)})
    for message in transform_messages(context.messages, model, normalize_call_id):
        converted = _convert(message, images)
        if converted is not None:
            messages.append(converted)
    return messages


def _convert(message: LLMMessage, images: bool) -> dict[str, Any] | None:
    if isinstance(message, UserMessage):
        return _user(message, images)
    if isinstance(message, AssistantMessage):
        return _assistant(message)
    return _tool_result(message, images)


def _tool(tool: ToolSpec) -> dict[str, Any]:
    function = {
        "name": tool.name,
        "description": tool.description,
        "strict": False,
        "parameters": tool.parameters,
    }
    return {"type": "function", "function": function}


def thinking_fields(model: Model, level: str | None) -> dict[str, Any]:
    """How pi asks a reasoning model to think at `level` (None: off, nothing is sent)."""
    if not model.reasoning or level is None:
        return {}
    clamped = clamp_thinking_level(model, level)
    if clamped == "off":
        return {}
    if model.id in EFFORT_MODELS:
        effort = (model.thinking_level_map or {}).get(clamped)
        return {"reasoning_effort": effort if effort is not None else "high"}
    return {"prompt_mode": "reasoning"}


def build_payload(model: Model, context: LLMContext, options: StreamOptions) -> dict[str, Any]:
    """The request body, in the SDK's key order."""
    payload: dict[str, Any] = {"model": model.id}
    if options.temperature is not None:
        payload["temperature"] = options.temperature
    max_tokens = options.max_tokens
    if max_tokens is None and model.max_tokens > 0:
        max_tokens = min(model.max_tokens, 32_000)
    if max_tokens is not None:
        payload["max_tokens"] = max_tokens
    payload["stream"] = True
    payload["messages"] = build_messages(model, context)
    if context.tools:
        payload["tools"] = [_tool(tool) for tool in context.tools]
    payload.update(thinking_fields(model, options.reasoning))
    return payload
