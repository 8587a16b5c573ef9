"""The transcript a summarizer reads: each message as a labelled paragraph, never as chat turns,
so the model summarizes the conversation instead of continuing it."""

from __future__ import annotations

from collections.abc import Sequence

from pi_core.compaction import js_length
from pi_core.deep import dumps as deep_dumps
from pi_core.messages import (
    AgentMessage,
    AssistantMessage,
    TextContent,
    ThinkingContent,
    ToolCall,
    ToolResultMessage,
    UserMessage,
    convert_to_llm,
)
from pi_core.providers import LLMMessage

TOOL_RESULT_MAX_CHARS = 2_000
"""A tool result longer than this (in JavaScript characters) is cut, with a note of the rest."""


def _js_prefix(text: str, limit: int) -> str:
    """Return the first `limit` UTF-16 code units of `text` (as JavaScript's slice would)."""
    if text.isascii():
        return text[:limit]
    units = text.encode("utf-16-le", "surrogatepass")[: limit * 2]
    return units.decode("utf-16-le", "surrogatepass")


def truncate_for_summary(text: str, max_chars: int = TOOL_RESULT_MAX_CHARS) -> str:
    """Keep the start of `text` and say how many characters were dropped."""
    length = js_length(text)
    if length <= max_chars:
        return text
    return f"{_js_prefix(text, max_chars)}\n\n[... {length - max_chars} more characters truncated]"


def _json(value: object) -> str:
    return deep_dumps(value, ensure_ascii=False, separators=(",", ":"))


def _text_of(content: str | Sequence[object]) -> str:
    if isinstance(content, str):
        return content
    return "".join(block.text for block in content if isinstance(block, TextContent))


def _assistant_parts(message: AssistantMessage) -> list[str]:
    texts: list[str] = []
    thoughts: list[str] = []
    calls: list[str] = []
    for block in message.content:
        if isinstance(block, TextContent):
            texts.append(block.text)
        elif isinstance(block, ThinkingContent):
            thoughts.append(block.thinking)
        elif isinstance(block, ToolCall):
            arguments = ", ".join(f"{k}={_json(v)}" for k, v in (block.arguments or {}).items())
            calls.append(f"{block.name}({arguments})")
    parts = []
    if thoughts:
        parts.append("[Assistant thinking]: " + "\n".join(thoughts))
    if texts:
        parts.append("[Assistant]: " + "\n".join(texts))
    if calls:
        parts.append("[Assistant tool calls]: " + "; ".join(calls))
    return parts


def serialize_llm_messages(messages: Sequence[LLMMessage]) -> str:
    """Render LLM messages as `[User]:`, `[Assistant]:`… paragraphs separated by blank lines."""
    parts: list[str] = []
    for message in messages:
        if isinstance(message, UserMessage):
            text = _text_of(message.content)
            if text:
                parts.append(f"[User]: {text}")
        elif isinstance(message, AssistantMessage):
            parts.extend(_assistant_parts(message))
        elif isinstance(message, ToolResultMessage):
            text = _text_of(message.content)
            if text:
                parts.append(f"[Tool result]: {truncate_for_summary(text)}")
    return "\n\n".join(parts)


def serialize_conversation(messages: Sequence[AgentMessage]) -> str:
    """Render a session's messages for a summarizer: bash runs, custom messages and summaries
    read as user text, `!!` commands are left out, images are dropped."""
    return serialize_llm_messages(convert_to_llm(list(messages)))
