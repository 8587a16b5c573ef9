"""pi's context as a Gemini `generateContent` request body (the Gemini API's and Vertex's)."""

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
    Model,
    StreamOptions,
    ToolSpec,
    transform_messages,
)
from pi_plugin_google.thinking import thinking_config

_SURROGATE = re.compile("[\ud800-\udfff]")
_UNSAFE_ID = re.compile(r"[^a-zA-Z0-9_-]")
_BASE64 = re.compile(r"^[A-Za-z0-9+/]+={0,2}$")
MAX_OUTPUT_TOKENS = 32_000
"""pi's ceiling on the output limit when the caller sets none."""


def clean(text: str) -> str:
    """The text without lone surrogates, which JSON encoders reject."""
    return _SURROGATE.sub("", text)


def requires_tool_call_id(model_id: str) -> bool:
    """Models behind Google's APIs that need the call id on function calls and responses."""
    return model_id.startswith(("claude-", "gpt-oss-"))


def _gemini_major(model_id: str) -> int | None:
    match = re.match(r"^gemini(?:-live)?-(\d+)", model_id.lower())
    return int(match.group(1)) if match else None


def _multimodal_function_response(model_id: str) -> bool:
    major = _gemini_major(model_id)
    return major is None or major >= 3


def _signature(same_model: bool, signature: str | None) -> str | None:
    """A thought signature is sent back only to the model that made it, and only as base64."""
    if not same_model or not signature or len(signature) % 4 or not _BASE64.match(signature):
        return None
    return signature


def _inline(image: ImageContent) -> dict[str, Any]:
    return {"inlineData": {"mimeType": image.mime_type, "data": image.data}}


def _user(message: UserMessage) -> dict[str, Any] | None:
    if isinstance(message.content, str):
        return {"role": "user", "parts": [{"text": clean(message.content)}]}
    parts = [
        {"text": clean(block.text)} if isinstance(block, TextContent) else _inline(block)
        for block in message.content
    ]
    return {"role": "user", "parts": parts} if parts else None


def _assistant(message: AssistantMessage, model: Model) -> dict[str, Any] | None:
    same = message.provider == model.provider and message.model == model.id
    parts: list[dict[str, Any]] = []
    for block in message.content:
        part: dict[str, Any]
        if isinstance(block, TextContent):
            if not block.text.strip():
                continue
            part = {"text": clean(block.text)}
            signature = _signature(same, block.text_signature)
        elif isinstance(block, ThinkingContent):
            if not block.thinking.strip():
                continue
            if not same:  # another model's reasoning becomes plain text
                parts.append({"text": clean(block.thinking)})
                continue
            part = {"thought": True, "text": clean(block.thinking)}
            signature = _signature(same, block.thinking_signature)
        elif isinstance(block, ToolCall):
            call: dict[str, Any] = {"name": block.name, "args": block.arguments or {}}
            if requires_tool_call_id(model.id):
                call["id"] = block.id
            part = {"functionCall": call}
            signature = _signature(same, block.thought_signature)
        else:
            continue
        if signature:
            part["thoughtSignature"] = signature
        parts.append(part)
    return {"role": "model", "parts": parts} if parts else None


def _tool_result(message: ToolResultMessage, model: Model, contents: list[dict[str, Any]]) -> None:
    """Add a function response; consecutive ones share one user turn, as Google requires."""
    text = "\n".join(b.text for b in message.content if isinstance(b, TextContent))
    images = (
        [b for b in message.content if isinstance(b, ImageContent)]
        if "image" in model.input
        else []
    )
    value = clean(text) if text else "(see attached image)" if images else ""
    response: dict[str, Any] = {
        "name": message.tool_name,
        "response": {"error": value} if message.is_error else {"output": value},
    }
    nested = _multimodal_function_response(model.id)
    if images and nested:
        response["parts"] = [_inline(image) for image in images]
    if requires_tool_call_id(model.id):
        response["id"] = message.tool_call_id
    part = {"functionResponse": response}
    last = contents[-1] if contents else None
    if last and last["role"] == "user" and any("functionResponse" in p for p in last["parts"]):
        last["parts"].append(part)
    else:
        contents.append({"role": "user", "parts": [part]})
    if images and not nested:  # Gemini before 3: the images follow in a user turn of their own
        image_parts = [_inline(image) for image in images]
        contents.append({"role": "user", "parts": [{"text": "Tool result image:"}, *image_parts]})


def _safe_id(call_id: str, model: Model, message: AssistantMessage) -> str:
    """A tool-call id as the models that need one accept it (64 safe characters)."""
    return _UNSAFE_ID.sub("_", call_id)[:64]


def contents(model: Model, context: LLMContext) -> list[dict[str, Any]]:
    """The conversation as Gemini `Content`s (`user` and `model` turns)."""
    result: list[dict[str, Any]] = []
    normalize = _safe_id if requires_tool_call_id(model.id) else None
    for message in transform_messages(context.messages, model, normalize):
        if isinstance(message, UserMessage):
            content = _user(message)
        elif isinstance(message, AssistantMessage):
            content = _assistant(message, model)
        elif isinstance(message, ToolResultMessage):
            _tool_result(message, model, result)
            continue
        else:
            continue
        if content is not None:
            result.append(content)
    return result


def tools(specs: list[ToolSpec]) -> list[dict[str, Any]] | None:
    """The tools as one `functionDeclarations` entry; the schema goes unchanged as
    `parametersJsonSchema` (full JSON Schema, which the API accepts), as pi sends it."""
    if not specs:
        return None
    declarations = [
        {"name": t.name, "description": t.description, "parametersJsonSchema": t.parameters}
        for t in specs
    ]
    return [{"functionDeclarations": declarations}]


def build_payload(
    model: Model, context: LLMContext, options: StreamOptions, parts: EncodedParts
) -> dict[str, Any]:
    """The request body: contents, system instruction, tools and `generationConfig`."""
    payload: dict[str, Any] = {"contents": contents(model, context)}
    if context.system_prompt:
        payload["systemInstruction"] = {
            "role": "user",
            "parts": [{"text": clean(context.system_prompt)}],
        }
    declared = tools(context.tools)
    if declared:
        payload["tools"] = declared
    config: dict[str, Any] = {}
    if options.temperature is not None:
        config["temperature"] = options.temperature
    max_tokens = options.max_tokens or min(model.max_tokens, MAX_OUTPUT_TOKENS)
    if max_tokens:
        config["maxOutputTokens"] = max_tokens
    thinking = thinking_config(model, options.reasoning, options.thinking_budgets)
    if thinking is not None:
        config["thinkingConfig"] = thinking
    if config:
        payload["generationConfig"] = config
    return payload
