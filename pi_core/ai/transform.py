"""Preparing a conversation for one model, as pi-ai's `transformMessages` does for every provider.

Failed or aborted turns are dropped; a tool call left without a result (the agent was killed while
the tool ran) gets an error result "No result provided", which every vendor API requires; another
model's thinking travels as plain text and its tool-call ids are made acceptable to this API;
images become a placeholder for models without image input. Providers call `transform_messages`
with their own id rule before converting to their wire format.

Each message's transformed form is cached by identity (`MessageCache`): a request then walks the
history without copying it, and hands the providers the same objects as the request before, so
their per-message caches of the wire form keep hitting.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from pi_core.ai.message_cache import MessageCache, PrefixCache
from pi_core.ai.model import Model
from pi_core.ai.protocol import LLMMessage
from pi_core.messages.content import ImageContent, TextContent, ThinkingContent, ToolCall
from pi_core.messages.llm import AssistantMessage, ToolResultMessage, UserMessage
from pi_core.messages.replace import with_fields

NormalizeToolCallId = Callable[[str, Model, AssistantMessage], str]
"""(tool-call id, the target model, the message that made the call) → an id the API accepts."""

NO_RESULT_TEXT = "No result provided"
_USER_IMAGE = "(image omitted: model does not support images)"
_TOOL_IMAGE = "(tool image omitted: model does not support images)"


def same_model(message: AssistantMessage, model: Model) -> bool:
    """Return whether `message` came from this very model (provider, API and id)."""
    return (message.provider, message.api, message.model) == (model.provider, model.api, model.id)


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


def _has_image(content: Blocks) -> bool:
    return any(isinstance(block, ImageContent) for block in content)


_Renames = tuple[tuple[str, str], ...]
_FOREIGN: MessageCache[tuple[AssistantMessage, _Renames]] = MessageCache()
"""Another model's assistant message as this model reads it, with the tool-call ids it renamed."""
_TOOL_RESULTS: MessageCache[ToolResultMessage] = MessageCache()
_USERS: MessageCache[UserMessage] = MessageCache()


def _foreign_assistant(
    message: AssistantMessage, model: Model, normalize: NormalizeToolCallId | None
) -> tuple[AssistantMessage, _Renames]:
    ids: dict[str, str] = {}
    content: list[TextContent | ThinkingContent | ToolCall] = []
    for block in message.content:
        if isinstance(block, ThinkingContent):
            if not block.redacted and block.thinking.strip():
                content.append(TextContent(text=block.thinking))
        elif isinstance(block, TextContent):
            # the block itself when it is already what this model reads (no signature, no
            # extra fields): read-only, and one model fewer per block
            plain = block.text_signature is None and not block.__pydantic_extra__
            content.append(block if plain else TextContent(text=block.text))
        else:
            new_id = normalize(block.id, model, message) if normalize is not None else block.id
            if new_id != block.id:
                ids[block.id] = new_id
            content.append(with_fields(block, id=new_id, thought_signature=None))
    return with_fields(message, content=content), tuple(ids.items())


def _assistant(
    message: AssistantMessage,
    model: Model,
    ids: dict[str, str],
    normalize: NormalizeToolCallId | None,
) -> AssistantMessage:
    if same_model(message, model):
        return message
    variant = (model.provider, model.api, model.id, normalize)
    converted, renames = _FOREIGN.get(
        message, variant, lambda m: _foreign_assistant(m, model, normalize)
    )
    ids.update(renames)
    return converted


def _tool_result(
    message: ToolResultMessage, *, new_id: str | None, images: bool
) -> ToolResultMessage:
    updates: dict[str, object] = {}
    if new_id is not None:
        updates["tool_call_id"] = new_id
    if not images and _has_image(message.content):
        updates["content"] = _without_images(message.content, _TOOL_IMAGE)
    return message.model_copy(update=updates) if updates else message


def _user(message: UserMessage) -> UserMessage:
    """`message` for a model without image input (the caller checked it has an image)."""
    assert not isinstance(message.content, str)
    return message.model_copy(update={"content": _without_images(message.content, _USER_IMAGE)})


_Checkpoint = tuple[list[LLMMessage], dict[str, str]]
_PREFIXES: PrefixCache[_Checkpoint] = PrefixCache()
"""The result and the renamed ids at the last point of the previous request with no tool call
waiting for its result, by model: a request transforms only the messages after it."""


def transform_messages(
    messages: list[LLMMessage], model: Model, normalize: NormalizeToolCallId | None = None
) -> list[LLMMessage]:
    """Return the messages to send to `model`: transformed for it, every tool call answered."""
    images = "image" in model.input
    key = (model.provider, model.api, model.id, images, normalize)
    start, saved = _PREFIXES.resume(key, messages)
    result: list[LLMMessage] = list(saved[0]) if saved is not None else []
    ids: dict[str, str] = dict(saved[1]) if saved is not None else {}
    pending: list[ToolCall] = []
    answered: set[str] = set()
    checkpoint = (start, len(result), dict(ids))

    def answer_pending() -> None:
        """Give each call of the last assistant turn that got no result an error result."""
        for call in pending:
            if call.id not in answered:
                result.append(
                    ToolResultMessage(
                        tool_call_id=call.id,
                        tool_name=call.name,
                        content=[TextContent(text=NO_RESULT_TEXT)],
                        is_error=True,
                    )
                )
        pending.clear()
        answered.clear()

    for index in range(start, len(messages)):
        message = messages[index]
        if not pending and index > checkpoint[0]:
            checkpoint = (index, len(result), dict(ids) if ids else {})
        if isinstance(message, AssistantMessage):
            answer_pending()
            if message.stop_reason in ("error", "aborted"):
                continue
            message = _assistant(message, model, ids, normalize)
            pending.extend(b for b in message.content if isinstance(b, ToolCall))
        elif isinstance(message, ToolResultMessage):
            new_id = ids.get(message.tool_call_id)
            if new_id is not None or (not images and _has_image(message.content)):
                variant = (new_id, images)
                message = _TOOL_RESULTS.get(
                    message, variant, partial(_tool_result, new_id=new_id, images=images)
                )
            answered.add(message.tool_call_id)
        elif isinstance(message, UserMessage):
            answer_pending()
            content = message.content
            if not images and not isinstance(content, str) and _has_image(content):
                message = _USERS.get(message, False, _user)
        result.append(message)
    if not pending:
        checkpoint = (len(messages), len(result), dict(ids) if ids else {})
    covered, produced, renamed = checkpoint
    if covered > start:
        _PREFIXES.save(key, messages[:covered], (result[:produced], renamed))
    answer_pending()
    return result
