"""Token accounting: reported usage, the chars/4 estimate, and when a context is due for compaction.

The estimate counts characters as JavaScript does (UTF-16 code units), so sizes agree with pi's on
any text, emoji included.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple, Protocol

from pi_core import deep
from pi_core.messages.agent import (
    AgentMessage,
    BashExecutionMessage,
    BranchSummaryMessage,
    CompactionSummaryMessage,
    CustomMessage,
)
from pi_core.messages.content import ImageContent, TextContent, ThinkingContent, ToolCall
from pi_core.messages.llm import AssistantMessage, ToolResultMessage, Usage, UserMessage
from pi_core.session.entries import CompactionEntry, SessionEntry, SessionMessageEntry

IMAGE_CHARS = 4_800
"""What one image counts as, in characters (1,200 tokens), in tool results and custom messages."""


class CompactionThresholds(Protocol):
    """Anything with pi's compaction settings (ours, or the settings file's model)."""

    enabled: bool
    reserve_tokens: int
    keep_recent_tokens: int


class ContextTokens(NamedTuple):
    """A context's size: the last reported usage plus estimates of the messages after it."""

    tokens: int
    usage_tokens: int
    trailing_tokens: int
    last_usage_index: int | None


def js_length(text: str) -> int:
    """Return the length of `text` as JavaScript counts it (UTF-16 code units)."""
    if text.isascii():
        return len(text)
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def _json_length(value: Any) -> int:
    return js_length(deep.dumps(value, ensure_ascii=False, separators=(",", ":")))


def _ceil_quarter(chars: int) -> int:
    return -(-chars // 4)


def calculate_context_tokens(usage: Usage) -> int:
    """Return a response's context size: total_tokens, else input + output + cache read/write."""
    return usage.total_tokens or usage.input + usage.output + usage.cache_read + usage.cache_write


def _blocks_chars(content: str | Sequence[Any], count_images: bool) -> int:
    if isinstance(content, str):
        return js_length(content)
    chars = 0
    for block in content:
        if isinstance(block, TextContent):
            chars += js_length(block.text)
        elif count_images and isinstance(block, ImageContent):
            chars += IMAGE_CHARS
    return chars


def estimate_tokens(message: AgentMessage) -> int:
    """Estimate a message's tokens as pi does: characters / 4, rounded up, per role."""
    if isinstance(message, UserMessage):
        return _ceil_quarter(_blocks_chars(message.content, count_images=False))
    if isinstance(message, AssistantMessage):
        chars = 0
        for block in message.content:
            if isinstance(block, TextContent):
                chars += js_length(block.text)
            elif isinstance(block, ThinkingContent):
                chars += js_length(block.thinking)
            elif isinstance(block, ToolCall):
                chars += js_length(block.name) + _json_length(block.arguments)
        return _ceil_quarter(chars)
    if isinstance(message, CustomMessage | ToolResultMessage):
        return _ceil_quarter(_blocks_chars(message.content, count_images=True))
    if isinstance(message, BashExecutionMessage):
        return _ceil_quarter(js_length(message.command) + js_length(message.output))
    if isinstance(message, BranchSummaryMessage | CompactionSummaryMessage):
        return _ceil_quarter(js_length(message.summary))
    return 0


def _usage_of(message: AgentMessage) -> Usage | None:
    if isinstance(message, AssistantMessage) and message.stop_reason not in ("aborted", "error"):
        return message.usage
    return None


def estimate_context_tokens(messages: Sequence[AgentMessage]) -> ContextTokens:
    """Size a context: the last valid assistant usage plus estimates of the messages after it."""
    for index in range(len(messages) - 1, -1, -1):
        usage = _usage_of(messages[index])
        if usage is not None:
            usage_tokens = calculate_context_tokens(usage)
            trailing = sum(estimate_tokens(m) for m in messages[index + 1 :])
            return ContextTokens(usage_tokens + trailing, usage_tokens, trailing, index)
    estimated = sum(estimate_tokens(m) for m in messages)
    return ContextTokens(estimated, 0, estimated, None)


def should_compact(
    context_tokens: int, context_window: int, settings: CompactionThresholds
) -> bool:
    """Return whether compaction is enabled and the context exceeds the window minus the reserve."""
    if not settings.enabled:
        return False
    return context_tokens > context_window - settings.reserve_tokens


def get_last_assistant_usage(entries: Sequence[SessionEntry]) -> Usage | None:
    """Return the usage of the newest assistant message that was neither aborted nor an error."""
    for entry in reversed(entries):
        if isinstance(entry, SessionMessageEntry):
            usage = _usage_of(entry.message)
            if usage is not None:
                return usage
    return None


def get_latest_compaction_entry(entries: Sequence[SessionEntry]) -> CompactionEntry | None:
    """Return the newest compaction entry of `entries`, or None."""
    for entry in reversed(entries):
        if isinstance(entry, CompactionEntry):
            return entry
    return None
