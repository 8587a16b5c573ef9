"""`read`'s answer for an image under `images.autoResize`: shrunk to pi's limits, with a note."""

from __future__ import annotations

from pi_core.messages import ImageContent, TextContent, UserContent
from pi_core.tools import IMAGE_TOO_LARGE_NOTE, ToolResult, dimension_note, resize_image

NON_VISION_NOTE = "[This model cannot take images, so the image is left out of the request.]"


def resized_image_result(data: bytes, mime_type: str, lacks_vision: bool) -> ToolResult:
    """pi's note ("Read image file [...]", the original size when shrunk) and the image."""
    resized = resize_image(data, mime_type)
    if resized is None:
        note = f"Read image file [{mime_type}]\n{IMAGE_TOO_LARGE_NOTE}"
    else:
        note = f"Read image file [{resized.mime_type}]"
        dimensions = dimension_note(resized)
        if dimensions:
            note += f"\n{dimensions}"
    if lacks_vision:
        note += f"\n{NON_VISION_NOTE}"
    content: list[UserContent] = [TextContent(text=note)]
    if resized is not None:
        content.append(ImageContent(data=resized.data, mime_type=resized.mime_type))
    return ToolResult(content=content)
