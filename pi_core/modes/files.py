"""`@file` arguments: text files are inlined in the first message, images are attached."""

from __future__ import annotations

import base64
from dataclasses import dataclass, field
from pathlib import Path

from pi_core.messages.content import ImageContent
from pi_core.tools.image_resize import IMAGE_TOO_LARGE_NOTE, dimension_note, resize_image
from pi_core.tools.image_settings import image_auto_resize

_IMAGE_TYPES = {
    b"\x89PNG\r\n\x1a\n": "image/png",
    b"\xff\xd8\xff": "image/jpeg",
    b"GIF87a": "image/gif",
    b"GIF89a": "image/gif",
}


class FileArgumentError(ValueError):
    """An `@file` that does not exist or cannot be read."""


@dataclass
class FileArguments:
    """What the `@file` arguments add to the first message."""

    text: str = ""
    images: list[ImageContent] = field(default_factory=list)


def image_type(head: bytes) -> str | None:
    """Return the MIME type of a PNG, JPEG, GIF or WebP file from its first bytes."""
    for magic, mime in _IMAGE_TYPES.items():
        if head.startswith(magic):
            return mime
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "image/webp"
    return None


def _attach(result: FileArguments, data: bytes, mime: str, path: Path, resize: bool) -> str:
    """Attach an image (shrunk to pi's limits with `resize`); return its `<file>` block, which
    carries pi's note on the original size, or says the image was left out."""
    if not resize:
        result.images.append(ImageContent(data=base64.b64encode(data).decode(), mime_type=mime))
        return f'<file name="{path}"></file>\n'
    resized = resize_image(data, mime)
    if resized is None:
        return f'<file name="{path}">{IMAGE_TOO_LARGE_NOTE}</file>\n'
    result.images.append(ImageContent(data=resized.data, mime_type=resized.mime_type))
    return f'<file name="{path}">{dimension_note(resized) or ""}</file>\n'


def process_file_arguments(
    paths: list[str], cwd: Path, auto_resize: bool | None = None
) -> FileArguments:
    """Read each `@file` (as pi does): `<file name="…">` blocks for text, attachments for images
    (resized per `images.autoResize` when `auto_resize` is None)."""
    result = FileArguments()
    for raw in paths:
        path = (cwd / Path(raw).expanduser()).resolve()
        if not path.is_file():
            raise FileArgumentError(f"File not found: {path}")
        try:
            data = path.read_bytes()
        except OSError as error:
            raise FileArgumentError(f"Could not read file {path}: {error.strerror}") from error
        if not data:
            continue
        mime = image_type(data[:16])
        if mime is not None:
            if auto_resize is None:
                auto_resize = image_auto_resize(str(cwd))
            result.text += _attach(result, data, mime, path, auto_resize)
            continue
        try:
            content = data.decode("utf-8")
        except UnicodeDecodeError as error:
            raise FileArgumentError(
                f"Could not read file {path}: it is neither text (UTF-8) nor an image"
            ) from error
        result.text += f'<file name="{path}">\n{content}\n</file>\n'
    return result
