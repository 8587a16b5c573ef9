"""Recognizing the image formats pi sends to models (png, jpeg, gif, webp) by their bytes."""

from __future__ import annotations

from pi_core.tools import MAX_INLINE_IMAGE_BASE64_BYTES

SNIFF_BYTES = 4100
"""How much of a file pi reads to recognize its type."""

__all__ = ["MAX_INLINE_IMAGE_BASE64_BYTES", "SNIFF_BYTES", "detect_image_mime_type"]


def detect_image_mime_type(head: bytes) -> str | None:
    """Return the mime type of a png, jpeg, gif or webp file from its first bytes, else None."""
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if head.startswith(b"\xff\xd8\xff"):
        return "image/jpeg"
    if head.startswith((b"GIF87a", b"GIF89a")):
        return "image/gif"
    if len(head) >= 12 and head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "image/webp"
    return None
