"""Sorting provider errors: retry it, compact and retry, or give up."""

from __future__ import annotations

import functools
import re
from typing import Literal

from pi_core.messages.llm import AssistantMessage

ErrorKind = Literal["retryable", "context_overflow", "fatal"]

# The patterns are compiled on the first failed response, not at start-up (~30 regular
# expressions: a few ms of every run that never fails).
_OVERFLOW_PATTERNS = (
    r"prompt is too long",
    r"request_too_large",
    r"input is too long for requested model",
    r"exceeds the context window",
    r"input token count.*exceeds the maximum",
    r"maximum prompt length is \d+",
    r"reduce the length of the messages",
    r"maximum context length is \d+ tokens",
    r"exceeds the limit of \d+",
    r"exceeds the available context size",
    r"greater than the context length",
    r"context window exceeds limit",
    r"exceeded model token limit",
    r"too large for model with \d+ maximum context length",
    r"model_context_window_exceeded",
    r"prompt too long; exceeded (?:max )?context length",
    r"context[_ ]length[_ ]exceeded",
    r"too many tokens",
    r"token limit exceeded",
    r"^4(?:00|13)\s*(?:status code)?\s*\(no body\)",
)
_NOT_OVERFLOW_PATTERNS = (
    r"^(Throttling error|Service unavailable):",
    r"rate limit",
    r"too many requests",
)
_RETRYABLE_PATTERN = (
    r"overloaded|provider.?returned.?error|rate.?limit|too many requests|429|500|502|503|504|"
    r"529|service.?unavailable|server.?error|internal.?error|network.?error|connection.?error|"
    r"connection.?refused|connection.?lost|connection.?reset|websocket.?closed|websocket.?error|"
    r"other side closed|fetch failed|upstream.?connect|reset before headers|socket hang up|"
    r"ended without|http2 request did not get a response|timed? out|timeout|terminated|"
    r"retry delay"
)


@functools.cache
def _compiled(patterns: tuple[str, ...]) -> list[re.Pattern[str]]:
    return [re.compile(pattern, re.IGNORECASE) for pattern in patterns]


def is_context_overflow(message: AssistantMessage, context_window: int = 0) -> bool:
    """Return whether the response says (or shows) that the input did not fit the window."""
    if message.stop_reason == "error":
        error = message.error_message or ""
        says_overflow = any(p.search(error) for p in _compiled(_OVERFLOW_PATTERNS))
        says_other = any(p.search(error) for p in _compiled(_NOT_OVERFLOW_PATTERNS))
        if says_overflow and not says_other:
            return True
    used = message.usage.input + message.usage.cache_read
    if context_window and message.stop_reason == "stop" and used > context_window:
        return True
    return bool(
        context_window
        and message.stop_reason == "length"
        and message.usage.output == 0
        and used >= context_window * 0.99
    )


def classify_error(message: AssistantMessage, context_window: int = 0) -> ErrorKind | None:
    """Classify a failed response; None when it did not fail."""
    if is_context_overflow(message, context_window):
        return "context_overflow"
    if message.stop_reason != "error":
        return None
    retryable = _compiled((_RETRYABLE_PATTERN,))[0]
    if message.error_message and retryable.search(message.error_message):
        return "retryable"
    return "fatal"


_RETRY_AFTER = re.compile(r" \(retry after (\d+(?:\.\d+)?) s\)$")


def with_retry_after(error_message: str, delay_ms: int | None) -> str:
    """Append the delay a server asked for (`Retry-After`) in the form `retry_after_ms` reads."""
    if delay_ms is None:
        return error_message
    return f"{error_message} (retry after {delay_ms / 1000:g} s)"


def retry_after_ms(message: AssistantMessage) -> int | None:
    """Return the delay the server asked for before a retry, if the error message carries one."""
    match = _RETRY_AFTER.search(message.error_message or "")
    return round(float(match.group(1)) * 1000) if match else None
