"""Images a tool returns, for Chat Completions: a `tool` message carries only text, so pi sends
the images after the run of tool results, in a user message of their own."""

from __future__ import annotations

from typing import Any

from pi_core.messages import ImageContent, ToolResultMessage
from pi_core.providers import Model

TOOL_IMAGES_TEXT = "Attached image(s) from tool result:"


def tool_result_images(model: Model, message: ToolResultMessage) -> list[dict[str, Any]]:
    """The `image_url` parts for the images of a tool result (none if the model takes no images)."""
    if "image" not in model.input:
        return []
    return [
        {"type": "image_url", "image_url": {"url": f"data:{block.mime_type};base64,{block.data}"}}
        for block in message.content
        if isinstance(block, ImageContent)
    ]


def tool_images_message(parts: list[dict[str, Any]]) -> dict[str, Any]:
    """The user message pi adds after tool results that returned images."""
    return {"role": "user", "content": [{"type": "text", "text": TOOL_IMAGES_TEXT}, *parts]}
