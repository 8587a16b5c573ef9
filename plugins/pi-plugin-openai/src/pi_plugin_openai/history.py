"""Preparing a conversation for the Responses API, as pi does before converting it.

Failed or aborted turns are dropped, tool calls left without a result get an error result, other
models' thinking travels as plain text, their tool-call ids are made acceptable to OpenAI, and
images become a placeholder for models without image input.
"""

from __future__ import annotations

import hashlib
import re

from pi_core.messages import (
    AssistantMessage,
    ImageContent,
    TextContent,
    ThinkingContent,
    ToolCall,
    ToolResultMessage,
    UserMessage,
)
from pi_core.providers import LLMMessage, Model

OPENAI_ITEM_ID_PROVIDERS = {"openai", "openai-codex", "opencode"}
"""Providers whose tool-call ids carry a Responses item id after a `|` worth keeping."""

_USER_IMAGE = "(image omitted: model does not support images)"
_TOOL_IMAGE = "(tool image omitted: model does not support images)"


def short_hash(text: str) -> str:
    """Return a short stable hash of `text` (for ids that must stay under 64 characters)."""
    return hashlib.sha256(text.encode()).hexdigest()[:20]


def _id_part(part: str) -> str:
    return re.sub(r"[^a-zA-Z0-9_-]", "_", part)[:64].rstrip("_")


def same_model(message: AssistantMessage, model: Model) -> bool:
    """Return whether `message` came from this very model (provider, API and id)."""
    return (message.provider, message.api, message.model) == (model.provider, model.api, model.id)


def _normalize_call_id(call_id: str, model: Model, source: AssistantMessage) -> str:
    if model.provider not in OPENAI_ITEM_ID_PROVIDERS or "|" not in call_id:
        return _id_part(call_id)
    call, item = call_id.split("|", 1)
    foreign = (source.provider, source.api) != (model.provider, model.api)
    item = f"fc_{short_hash(item)}" if foreign else _id_part(item)
    if not item.startswith("fc_"):
        item = _id_part(f"fc_{item}")
    return f"{_id_part(call)}|{item}"


Blocks = list[TextContent | ImageContent]


def _without_images(content: Blocks, placeholder: str) -> Blocks:
    result: Blocks = []
    for block in content:
        if isinstance(block, ImageContent):
            if not (
                result and isinstance(result[-1], TextContent) and result[-1].text == placeholder
            ):
                result.append(TextContent(text=placeholder))
        else:
            result.append(block)
    return result


def _assistant(message: AssistantMessage, model: Model, ids: dict[str, str]) -> AssistantMessage:
    if same_model(message, model):
        return message
    content: list[TextContent | ThinkingContent | ToolCall] = []
    for block in message.content:
        if isinstance(block, ThinkingContent):
            if not block.redacted and block.thinking.strip():
                content.append(TextContent(text=block.thinking))
        elif isinstance(block, TextContent):
            content.append(TextContent(text=block.text))
        else:
            new_id = _normalize_call_id(block.id, model, message)
            if new_id != block.id:
                ids[block.id] = new_id
            content.append(block.model_copy(update={"id": new_id, "thought_signature": None}))
    return message.model_copy(update={"content": content})


def prepare_messages(messages: list[LLMMessage], model: Model) -> list[LLMMessage]:
    """Return the messages to send: transformed for `model`, every tool call answered."""
    images = "image" in model.input
    ids: dict[str, str] = {}
    result: list[LLMMessage] = []
    pending: list[ToolCall] = []
    answered: set[str] = set()

    def answer_pending() -> None:
        """Give each call of the last assistant turn that got no result an error result."""
        for call in pending:
            if call.id not in answered:
                result.append(
                    ToolResultMessage(
                        tool_call_id=call.id,
                        tool_name=call.name,
                        content=[TextContent(text="No result provided")],
                        is_error=True,
                    )
                )
        pending.clear()
        answered.clear()

    for message in messages:
        if isinstance(message, AssistantMessage):
            answer_pending()
            if message.stop_reason in ("error", "aborted"):
                continue
            message = _assistant(message, model, ids)
            pending.extend(b for b in message.content if isinstance(b, ToolCall))
        elif isinstance(message, ToolResultMessage):
            updates: dict[str, object] = {}
            if message.tool_call_id in ids:
                updates["tool_call_id"] = ids[message.tool_call_id]
            if not images:
                updates["content"] = _without_images(message.content, _TOOL_IMAGE)
            message = message.model_copy(update=updates) if updates else message
            answered.add(message.tool_call_id)
        elif isinstance(message, UserMessage):
            answer_pending()
            if not images and not isinstance(message.content, str):
                message = message.model_copy(
                    update={"content": _without_images(message.content, _USER_IMAGE)}
                )
        result.append(message)
    answer_pending()
    return result
