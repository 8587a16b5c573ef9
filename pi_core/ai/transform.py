"""Preparing a conversation for one model, as pi-ai's `transformMessages` does for every provider.

Failed or aborted turns are dropped; a tool call left without a result (the agent was killed while
the tool ran) gets an error result "No result provided", which every vendor API requires; another
model's thinking travels as plain text and its tool-call ids are made acceptable to this API;
images become a placeholder for models without image input. Providers call `transform_messages`
with their own id rule before converting to their wire format.
"""

from __future__ import annotations

from collections.abc import Callable

from pi_core.ai.model import Model
from pi_core.ai.protocol import LLMMessage
from pi_core.messages.content import ImageContent, TextContent, ThinkingContent, ToolCall
from pi_core.messages.llm import AssistantMessage, ToolResultMessage, UserMessage

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


def _assistant(
    message: AssistantMessage,
    model: Model,
    ids: dict[str, str],
    normalize: NormalizeToolCallId | None,
) -> AssistantMessage:
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
            new_id = normalize(block.id, model, message) if normalize is not None else block.id
            if new_id != block.id:
                ids[block.id] = new_id
            content.append(block.model_copy(update={"id": new_id, "thought_signature": None}))
    return message.model_copy(update={"content": content})


def transform_messages(
    messages: list[LLMMessage], model: Model, normalize: NormalizeToolCallId | None = None
) -> list[LLMMessage]:
    """Return the messages to send to `model`: transformed for it, every tool call answered."""
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
                        content=[TextContent(text=NO_RESULT_TEXT)],
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
            message = _assistant(message, model, ids, normalize)
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
