"""pi's messages and stream events in Claude Code's stream-json shapes."""

from __future__ import annotations

import uuid
from typing import Any

from pi_core.messages import (
    AssistantMessage,
    ImageContent,
    TextContent,
    ThinkingContent,
    ToolCall,
    ToolResultMessage,
)
from pi_plugin_claude.responses import claude_tool_response

STOP_REASONS = {
    "stop": "end_turn",
    "length": "max_tokens",
    "toolUse": "tool_use",
    "error": None,
    "aborted": None,
}


def new_uuid() -> str:
    """A fresh uuid4 string, as Claude Code stamps every line."""
    return str(uuid.uuid4())


def message_id(message: AssistantMessage) -> str:
    """The Anthropic-style id of an assistant message (the provider's, else one derived)."""
    return message.response_id or f"msg_pi_{message.timestamp}"


def usage_of(message: AssistantMessage) -> dict[str, Any]:
    """Anthropic's usage object for one assistant message."""
    usage = message.usage
    return {
        "input_tokens": usage.input,
        "output_tokens": usage.output,
        "cache_creation_input_tokens": usage.cache_write,
        "cache_read_input_tokens": usage.cache_read,
    }


def content_block(block: Any) -> dict[str, Any] | None:
    """One pi content block as an Anthropic content block (None for kinds Claude lacks)."""
    if isinstance(block, TextContent):
        return {"type": "text", "text": block.text}
    if isinstance(block, ThinkingContent):
        return {
            "type": "thinking",
            "thinking": block.thinking,
            "signature": block.thinking_signature or "",
        }
    if isinstance(block, ToolCall):
        return {"type": "tool_use", "id": block.id, "name": block.name, "input": block.arguments}
    return None


def anthropic_message(message: AssistantMessage, blocks: list[dict[str, Any]]) -> dict[str, Any]:
    """The `message` object of an assistant line holding `blocks`."""
    return {
        "id": message_id(message),
        "type": "message",
        "role": "assistant",
        "model": message.response_model or message.model or "<synthetic>",
        "content": blocks,
        "stop_reason": STOP_REASONS.get(message.stop_reason),
        "stop_sequence": None,
        "usage": usage_of(message),
    }


def assistant_lines(message: AssistantMessage, session_id: str) -> list[dict[str, Any]]:
    """One `assistant` line per content block, all with the same message id, as Claude does."""
    lines = []
    for block in message.content:
        converted = content_block(block)
        if converted is None:
            continue
        lines.append(
            {
                "type": "assistant",
                "message": anthropic_message(message, [converted]),
                "parent_tool_use_id": None,
                "session_id": session_id,
                "uuid": new_uuid(),
            }
        )
    return lines


def error_assistant_line(text: str, session_id: str) -> dict[str, Any]:
    """The synthetic assistant line Claude sends when the API call failed."""
    return {
        "type": "assistant",
        "message": {
            "id": new_uuid(),
            "type": "message",
            "role": "assistant",
            "model": "<synthetic>",
            "content": [{"type": "text", "text": text}],
            "stop_reason": "stop_sequence",
            "stop_sequence": "",
            "usage": {"input_tokens": 0, "output_tokens": 0},
        },
        "parent_tool_use_id": None,
        "session_id": session_id,
        "uuid": new_uuid(),
        "error": "unknown",
    }


def result_text(message: ToolResultMessage, tool_name: str) -> str:
    """The text of a tool result; Claude's wording when a command printed nothing."""
    text = "\n".join(b.text for b in message.content if isinstance(b, TextContent))
    if not text and not message.is_error:
        return f"({tool_name} completed with no output)"
    return text


def tool_result_content(message: ToolResultMessage, tool_name: str) -> str | list[dict[str, Any]]:
    """A tool result's content: a string, or blocks when it holds images."""
    if not any(isinstance(b, ImageContent) for b in message.content):
        return result_text(message, tool_name)
    blocks: list[dict[str, Any]] = []
    for block in message.content:
        if isinstance(block, TextContent):
            blocks.append({"type": "text", "text": block.text})
        elif isinstance(block, ImageContent):
            blocks.append(
                {
                    "type": "image",
                    "source": {"type": "base64", "media_type": block.mime_type, "data": block.data},
                }
            )
    return blocks


def tool_use_result(
    message: ToolResultMessage, text: str, tool_input: dict[str, Any] | None = None
) -> Any:
    """The `tool_use_result` Claude attaches: an error string, or the tool's structured output."""
    if message.is_error:
        return f"Error: {text}"
    return claude_tool_response(message.tool_name, tool_input or {}, text, message.details)


def tool_result_line(
    message: ToolResultMessage, session_id: str, tool_input: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The `user` line carrying one tool result (`tool_input`: the call's arguments)."""
    content = tool_result_content(message, message.tool_name)
    text = content if isinstance(content, str) else result_text(message, message.tool_name)
    return {
        "type": "user",
        "message": {
            "role": "user",
            "content": [
                {
                    "tool_use_id": message.tool_call_id,
                    "type": "tool_result",
                    "content": content,
                    "is_error": message.is_error,
                }
            ],
        },
        "parent_tool_use_id": None,
        "session_id": session_id,
        "uuid": new_uuid(),
        "tool_use_result": tool_use_result(message, text, tool_input),
    }


def user_text_line(text: str, session_id: str) -> dict[str, Any]:
    """A `user` line with plain text blocks (interrupt notices, local command output)."""
    return {
        "type": "user",
        "message": {"role": "user", "content": [{"type": "text", "text": text}]},
        "parent_tool_use_id": None,
        "session_id": session_id,
        "uuid": new_uuid(),
    }


def stream_event_line(event: dict[str, Any], session_id: str) -> dict[str, Any]:
    """A `stream_event` line wrapping one raw Anthropic SSE event."""
    return {
        "type": "stream_event",
        "event": event,
        "session_id": session_id,
        "parent_tool_use_id": None,
        "uuid": new_uuid(),
    }


class StreamEvents:
    """Turns pi's assistant stream events back into Anthropic SSE events, block by block."""

    def __init__(self) -> None:
        self.open_block: int | None = None

    def start(self, message: AssistantMessage) -> list[dict[str, Any]]:
        """`message_start` for a new assistant message."""
        self.open_block = None
        start = anthropic_message(message, [])
        start["stop_reason"] = None
        return [{"type": "message_start", "message": start}]

    def update(self, event: Any) -> list[dict[str, Any]]:
        """The SSE events for one pi `assistant_message_event`."""
        kind = getattr(event, "type", "")
        index = getattr(event, "content_index", 0)
        if kind == "text_start":
            return [self._block_start(index, {"type": "text", "text": ""})]
        if kind == "thinking_start":
            return [self._block_start(index, {"type": "thinking", "thinking": "", "signature": ""})]
        if kind == "toolcall_start":
            call = event.partial.content[index] if index < len(event.partial.content) else None
            block: dict[str, Any] = {
                "type": "tool_use",
                "id": getattr(call, "id", ""),
                "name": getattr(call, "name", ""),
                "input": {},
            }
            return [self._block_start(index, block)]
        deltas = {
            "text_delta": ("text_delta", "text"),
            "thinking_delta": ("thinking_delta", "thinking"),
            "toolcall_delta": ("input_json_delta", "partial_json"),
        }
        if kind in deltas:
            delta_type, key = deltas[kind]
            delta = {"type": delta_type, key: event.delta}
            return [{"type": "content_block_delta", "index": index, "delta": delta}]
        if kind in ("text_end", "thinking_end", "toolcall_end"):
            self.open_block = None
            return [{"type": "content_block_stop", "index": index}]
        return []

    def finish(self, message: AssistantMessage) -> list[dict[str, Any]]:
        """`message_delta` and `message_stop` once the message is complete."""
        delta = {"stop_reason": STOP_REASONS.get(message.stop_reason), "stop_sequence": None}
        return [
            {"type": "message_delta", "delta": delta, "usage": usage_of(message)},
            {"type": "message_stop"},
        ]

    def _block_start(self, index: int, block: dict[str, Any]) -> dict[str, Any]:
        self.open_block = index
        return {"type": "content_block_start", "index": index, "content_block": block}
