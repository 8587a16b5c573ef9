"""Messages in Chat Completions' format, and the system prompt every request carries."""

from __future__ import annotations

import json
from typing import Any

Message = dict[str, Any]

SYSTEM_PROMPT = (
    "You are an expert coding assistant. You help users by reading files, executing commands, "
    "editing code, and writing new files. Available tools: read, bash, edit, write."
)


def text_of(content: Any) -> str:
    """The text blocks of a message's content (a plain string passes through)."""
    if isinstance(content, str):
        return content
    return "".join(block.get("text", "") for block in content if block.get("type") == "text")


def to_wire(message: Message) -> Message:
    """One message in Chat Completions' format."""
    role = message["role"]
    if role == "assistant":
        wire: Message = {"role": "assistant", "content": text_of(message["content"]) or None}
        calls = [block for block in message["content"] if block.get("type") == "toolCall"]
        if calls:
            wire["tool_calls"] = [
                {"id": c["id"], "type": "function",
                 "function": {"name": c["name"], "arguments": json.dumps(c["arguments"])}}
                for c in calls
            ]  # fmt: skip
        return wire
    if role == "toolResult":
        return {"role": "tool", "tool_call_id": message["toolCallId"],
                "content": text_of(message["content"])}  # fmt: skip
    return {"role": "user", "content": text_of(message.get("content", ""))}
