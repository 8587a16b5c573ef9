"""Images in the transcript: inline (kitty or iTerm2 protocol) where the terminal shows them,
else a `[image: mime, WxH]` line."""

from __future__ import annotations

import base64
import binascii
import os
import struct
from collections.abc import Mapping

from pi_core.terminal_text import sanitize

IMAGE_WIDTH_CELLS = 60
_KITTY_CHUNK = 4096


def image_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) read from a PNG, GIF, JPEG or WebP header; None when unknown."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
        width, height = struct.unpack(">II", data[16:24])
        return width, height
    if data[:6] in (b"GIF87a", b"GIF89a") and len(data) >= 10:
        width, height = struct.unpack("<HH", data[6:10])
        return width, height
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP" and len(data) >= 30:
        return _webp_size(data)
    if data[:2] == b"\xff\xd8":
        return _jpeg_size(data)
    return None


def _webp_size(data: bytes) -> tuple[int, int] | None:
    kind = data[12:16]
    if kind == b"VP8X":
        width = int.from_bytes(data[24:27], "little") + 1
        height = int.from_bytes(data[27:30], "little") + 1
        return width, height
    if kind == b"VP8 " and len(data) >= 30:
        width, height = struct.unpack("<HH", data[26:30])
        return width & 0x3FFF, height & 0x3FFF
    if kind == b"VP8L" and len(data) >= 25:
        bits = int.from_bytes(data[21:25], "little")
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    return None


def _jpeg_size(data: bytes) -> tuple[int, int] | None:
    index = 2
    while index + 9 < len(data):
        if data[index] != 0xFF:
            return None
        marker = data[index + 1]
        length = int.from_bytes(data[index + 2 : index + 4], "big")
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            height, width = struct.unpack(">HH", data[index + 5 : index + 9])
            return width, height
        index += 2 + length
    return None


def decode(data: str) -> bytes:
    """The bytes of base64 image data (empty when it is not base64)."""
    try:
        return base64.b64decode(data, validate=False)
    except (binascii.Error, ValueError):
        return b""


def placeholder(mime_type: str, data: str) -> str:
    """`[image: image/png, 800x600]` (without the size when the header is unreadable)."""
    size = image_size(decode(data)[:65536])
    mime_type = sanitize(mime_type)  # printed as it is, not through rich
    return f"[image: {mime_type}, {size[0]}x{size[1]}]" if size else f"[image: {mime_type}]"


def inline_protocol(env: Mapping[str, str] | None = None) -> str | None:
    """`kitty` or `iterm` when the terminal shows inline images, else None."""
    env = os.environ if env is None else env
    if env.get("TERM", "") == "dumb":
        return None
    if env.get("KITTY_WINDOW_ID") or env.get("TERM", "") == "xterm-kitty":
        return "kitty"
    if env.get("TERM_PROGRAM", "") in ("iTerm.app", "WezTerm"):
        return "iterm"
    return None


def inline_image(
    data: str, mime_type: str, protocol: str | None, width: int = IMAGE_WIDTH_CELLS
) -> str | None:
    """The escape codes that draw the image `width` cells wide (None when this terminal or
    format cannot)."""
    if protocol is None:
        return None
    # encoded again: data from a tool could end the sequence early and start one of its own
    data = base64.b64encode(decode(data)).decode("ascii")
    if protocol == "iterm":
        return f"\x1b]1337;File=inline=1;width={width};preserveAspectRatio=1:{data}\x07"
    if protocol == "kitty" and mime_type == "image/png":  # kitty decodes PNG itself
        chunks = [data[i : i + _KITTY_CHUNK] for i in range(0, len(data), _KITTY_CHUNK)] or [""]
        out = []
        for index, chunk in enumerate(chunks):
            more = 1 if index < len(chunks) - 1 else 0
            control = f"a=T,f=100,c={width},m={more}" if index == 0 else f"m={more}"
            out.append(f"\x1b_G{control};{chunk}\x1b\\")
        return "".join(out)
    return None


def image_lines(
    data: str, mime_type: str, protocol: str | None, width: int = IMAGE_WIDTH_CELLS
) -> str:
    """What the transcript prints for one image: the picture, or its placeholder line."""
    return inline_image(data, mime_type, protocol, width) or placeholder(mime_type, data)
