"""`images.blockImages`: every image in what reaches the model becomes a text note (as pi)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pi_core.messages.agent import AgentMessage
from pi_core.messages.content import ImageContent, TextContent
from pi_core.messages.llm import LLMMessage, ToolResultMessage, UserMessage

IMAGES_BLOCKED = "Image reading is disabled."
"""pi's stand-in for an image when images are blocked."""


def _without_images(content: list[Any]) -> list[Any]:
    """Images replaced by the note; a note right after another one is dropped."""
    out: list[Any] = []
    for block in content:
        if isinstance(block, ImageContent):
            block = TextContent(text=IMAGES_BLOCKED)
        previous = out[-1] if out else None
        repeated = isinstance(previous, TextContent) and previous.text == IMAGES_BLOCKED
        if repeated and isinstance(block, TextContent) and block.text == IMAGES_BLOCKED:
            continue
        out.append(block)
    return out


def strip_images(messages: list[LLMMessage]) -> list[LLMMessage]:
    """Return `messages` with the images of user messages and tool results replaced by pi's
    note (messages without images are the same objects)."""
    result: list[LLMMessage] = []
    for message in messages:
        content = message.content if isinstance(message, UserMessage | ToolResultMessage) else None
        if isinstance(content, list) and any(isinstance(b, ImageContent) for b in content):
            message = message.model_copy(update={"content": _without_images(content)})
        result.append(message)
    return result


def blocking_images(
    convert: Callable[[list[AgentMessage]], list[LLMMessage]], blocked: Callable[[], bool]
) -> Callable[[list[AgentMessage]], list[LLMMessage]]:
    """Wrap `convert` so images are stripped whenever `blocked()` says so (read at each request,
    so a change mid-session applies)."""

    def converted(messages: list[AgentMessage]) -> list[LLMMessage]:
        llm = convert(messages)
        return strip_images(llm) if blocked() else llm

    return converted
