"""Shrinking an image to pi's inline limits (2000 px a side, 4.5 MB of base64), with Pillow."""

from __future__ import annotations

import base64
import io
from dataclasses import dataclass

MAX_INLINE_IMAGE_BASE64_BYTES = int(4.5 * 1024 * 1024)
"""pi's limit for an image sent inline (base64), below Anthropic's 5 MB."""
MAX_SIDE = 2000
IMAGE_TOO_LARGE_NOTE = (
    "[Image left out: even shrunk, it stays above the size limit for inline images.]"
)
"""Said in place of an image that cannot be made small enough (or cannot be decoded)."""
JPEG_QUALITIES = (80, 85, 70, 55, 40)


@dataclass(frozen=True)
class ResizedImage:
    """An image ready to send, with its size before and after."""

    data: str
    mime_type: str
    original_width: int
    original_height: int
    width: int
    height: int
    was_resized: bool


def _fit(width: int, height: int) -> tuple[int, int]:
    """The size within MAX_SIDE by MAX_SIDE, keeping the aspect ratio (rounded as pi rounds)."""
    if width > MAX_SIDE:
        height, width = int(height * MAX_SIDE / width + 0.5), MAX_SIDE
    if height > MAX_SIDE:
        width, height = int(width * MAX_SIDE / height + 0.5), MAX_SIDE
    return width, height


def _encodings(image: object, width: int, height: int) -> list[tuple[str, str]]:
    """The image at `width` by `height` as PNG, then as JPEG at each quality: (base64, mime)."""
    from PIL import Image

    assert isinstance(image, Image.Image)
    resized = image.resize((width, height), Image.Resampling.LANCZOS)
    out: list[tuple[str, str]] = []
    buffer = io.BytesIO()
    resized.save(buffer, format="PNG")
    out.append((base64.b64encode(buffer.getvalue()).decode("ascii"), "image/png"))
    rgb = resized.convert("RGB")
    for quality in JPEG_QUALITIES:
        buffer = io.BytesIO()
        rgb.save(buffer, format="JPEG", quality=quality)
        out.append((base64.b64encode(buffer.getvalue()).decode("ascii"), "image/jpeg"))
    return out


def resize_image(data: bytes, mime_type: str) -> ResizedImage | None:
    """Return the image within pi's limits (unchanged if it already is), or None if it cannot
    be brought under the size limit (or cannot be decoded)."""
    from PIL import Image, ImageOps

    try:
        with Image.open(io.BytesIO(data)) as opened:
            image = ImageOps.exif_transpose(opened)
            image.load()
    except (OSError, ValueError, Image.DecompressionBombError):
        return None
    original_width, original_height = image.size
    encoded = base64.b64encode(data).decode("ascii")
    within = original_width <= MAX_SIDE and original_height <= MAX_SIDE
    if within and len(encoded) < MAX_INLINE_IMAGE_BASE64_BYTES:
        size = (original_width, original_height)
        return ResizedImage(encoded, mime_type, *size, *size, was_resized=False)
    width, height = _fit(original_width, original_height)
    while True:
        for candidate, mime in _encodings(image, width, height):
            if len(candidate) < MAX_INLINE_IMAGE_BASE64_BYTES:
                sizes = (original_width, original_height, width, height)
                return ResizedImage(candidate, mime, *sizes, was_resized=True)
        if (width, height) == (1, 1):
            return None
        width, height = max(1, int(width * 0.75)), max(1, int(height * 0.75))


def dimension_note(image: ResizedImage) -> str | None:
    """pi's note on a resized image: the original size and the factor back to it."""
    if not image.was_resized:
        return None
    scale = image.original_width / image.width
    return (
        f"[Image: original {image.original_width}x{image.original_height}, displayed at "
        f"{image.width}x{image.height}. Multiply coordinates by {scale:.2f} to map to original "
        "image.]"
    )
