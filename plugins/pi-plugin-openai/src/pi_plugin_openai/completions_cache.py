"""Anthropic-style `cache_control` marks in a Chat Completions body (`cacheControlFormat`), as
pi places them: the system prompt, the last tool, and the last user or assistant message."""

from __future__ import annotations

from typing import Any


def _marked(message: dict[str, Any], mark: dict[str, Any]) -> dict[str, Any] | None:
    """A copy of `message` with its last text part marked, or None if it has no text."""
    content = message.get("content")
    if isinstance(content, str):
        if not content:
            return None
        return {**message, "content": [{"type": "text", "text": content, "cache_control": mark}]}
    if not isinstance(content, list):
        return None
    for index in range(len(content) - 1, -1, -1):
        part = content[index]
        if isinstance(part, dict) and part.get("type") == "text":
            parts = [*content[:index], {**part, "cache_control": mark}, *content[index + 1 :]]
            return {**message, "content": parts}
    return None


def add_cache_marks(
    messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None, mark: dict[str, Any]
) -> list[dict[str, Any]]:
    """Return `messages` marked (a new list; shared message dicts are copied, never changed) and
    mark the last of `tools` in place."""
    marked = list(messages)
    for index, message in enumerate(marked):
        if message.get("role") in ("system", "developer"):
            marked[index] = _marked(message, mark) or message
            break
    if tools:
        tools[-1] = {**tools[-1], "cache_control": mark}
    for index in range(len(marked) - 1, -1, -1):
        if marked[index].get("role") in ("user", "assistant"):
            copy = _marked(marked[index], mark)
            if copy is not None:
                marked[index] = copy
                break
    return marked
