"""A saved conversation as the ACP updates that replay it (for `session/load`)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from acp import (
    image_block,
    text_block,
    update_agent_message_text,
    update_agent_thought_text,
    update_user_message,
    update_user_message_text,
)

from pi_core.messages import ImageContent, TextContent, ThinkingContent, ToolCall
from pi_plugin_acp.updates import EventTranslator


def replay_updates(messages: list[Any], cwd: str) -> Iterator[Any]:
    """Yield user and agent chunks and tool calls with their results, in conversation order."""
    translator = EventTranslator(cwd)
    for message in messages:
        role = getattr(message, "role", None)
        if role == "user":
            content = message.content
            if isinstance(content, str):
                yield update_user_message_text(content)
                continue
            for block in content:
                if isinstance(block, TextContent):
                    yield update_user_message(text_block(block.text))
                elif isinstance(block, ImageContent):
                    yield update_user_message(image_block(block.data, block.mime_type))
        elif role == "assistant":
            for block in message.content:
                if isinstance(block, TextContent) and block.text:
                    yield update_agent_message_text(block.text)
                elif isinstance(block, ThinkingContent) and block.thinking:
                    yield update_agent_thought_text(block.thinking)
                elif isinstance(block, ToolCall):
                    yield translator.announce(block.id, block.name, block.arguments)
        elif role == "toolResult":
            yield from translator.translate(_End(message))


class _End:
    """A saved tool result seen as the `tool_execution_end` event it came from."""

    type = "tool_execution_end"

    def __init__(self, message: Any) -> None:
        self.tool_call_id = message.tool_call_id
        self.tool_name = message.tool_name
        self.result = message
        self.is_error = message.is_error
