"""Images in the transcript: their size read from the header, a placeholder line, or the kitty
or iTerm2 inline protocol when the terminal says it has one."""

from __future__ import annotations

import base64
import struct

from pi_core.modes.interactive.images import (
    image_lines,
    image_size,
    inline_protocol,
    placeholder,
)
from pi_core.modes.interactive.tool_views import result_images, result_text


def png(width: int, height: int) -> bytes:
    header = struct.pack(">II", width, height) + b"\x08\x02\x00\x00\x00"
    return b"\x89PNG\r\n\x1a\n" + b"\x00\x00\x00\x0dIHDR" + header + b"\x00" * 4


def test_sizes_are_read_from_png_gif_and_jpeg_headers() -> None:
    assert image_size(png(800, 600)) == (800, 600)
    assert image_size(b"GIF89a" + struct.pack("<HH", 32, 16)) == (32, 16)
    jpeg = b"\xff\xd8" + b"\xff\xc0\x00\x11\x08" + struct.pack(">HH", 240, 320) + b"\x00" * 8
    assert image_size(jpeg) == (320, 240)
    assert image_size(b"not an image") is None


def test_a_placeholder_names_the_type_and_size() -> None:
    data = base64.b64encode(png(800, 600)).decode()
    assert placeholder("image/png", data) == "[image: image/png, 800x600]"
    assert placeholder("image/png", "!!!") == "[image: image/png]"


def test_tool_results_name_their_images_with_the_size() -> None:
    data = base64.b64encode(png(10, 20)).decode()
    result = {"content": [{"type": "text", "text": "look"},
                          {"type": "image", "data": data, "mimeType": "image/png"}]}  # fmt: skip
    assert result_text(result) == "look\n[image: image/png, 10x20]"
    assert result_images(result) == [(data, "image/png")]


def test_the_terminal_decides_between_inline_images_and_placeholders() -> None:
    assert inline_protocol({"KITTY_WINDOW_ID": "1", "TERM": "xterm-kitty"}) == "kitty"
    assert inline_protocol({"TERM_PROGRAM": "iTerm.app"}) == "iterm"
    assert inline_protocol({"TERM": "xterm-256color", "TERM_PROGRAM": "tmux"}) is None
    assert inline_protocol({"TERM": "dumb", "KITTY_WINDOW_ID": "1"}) is None


def test_inline_images_use_the_terminal_protocol() -> None:
    data = base64.b64encode(png(4, 4) * 2000).decode()  # long enough for several kitty chunks
    kitty = image_lines(data, "image/png", "kitty")
    assert kitty.startswith("\x1b_Ga=T,f=100,") and kitty.count("\x1b_G") > 1
    assert kitty.endswith("\x1b\\") and "m=0;" in kitty
    assert "".join(part.split(";", 1)[1] for part in kitty.split("\x1b\\") if part) == data
    iterm = image_lines(data, "image/jpeg", "iterm")
    assert iterm.startswith("\x1b]1337;File=inline=1;") and iterm.endswith(data + "\x07")
    assert image_lines(data, "image/jpeg", "kitty").startswith("[image: image/jpeg")
    assert image_lines(data, "image/png", None) == "[image: image/png, 4x4]"
