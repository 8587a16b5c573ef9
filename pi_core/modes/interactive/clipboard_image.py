"""Ctrl+V: an image on the clipboard, saved to a temporary file whose path goes into the editor.

As pi does on Linux: `wl-paste` under Wayland (then `xclip`), `xclip` under X11. The preferred
type the clipboard offers is PNG, then JPEG, WebP and GIF. A clipboard without an image, or
without one of these tools, does nothing.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import tempfile
import uuid
from collections.abc import Callable, Mapping
from typing import Any

IMAGE_TYPES = ("image/png", "image/jpeg", "image/webp", "image/gif")
EXTENSIONS = {"image/png": "png", "image/jpeg": "jpg", "image/webp": "webp", "image/gif": "gif"}
LIST_SECONDS = 1.0
READ_SECONDS = 3.0


def _run(command: list[str], timeout: float) -> bytes | None:
    try:
        done = subprocess.run(command, capture_output=True, timeout=timeout, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout if done.returncode == 0 else None


def _preferred(types: list[str]) -> str | None:
    bases = {t.split(";")[0].strip().lower(): t for t in types if t.strip()}
    for wanted in IMAGE_TYPES:
        if wanted in bases:
            return wanted
    return None


def _wl_paste() -> tuple[bytes, str] | None:
    listed = _run(["wl-paste", "--list-types"], LIST_SECONDS)
    chosen = _preferred(listed.decode("utf-8", "replace").splitlines()) if listed else None
    if chosen is None:
        return None
    data = _run(["wl-paste", "--type", chosen, "--no-newline"], READ_SECONDS)
    return (data, chosen) if data else None


def _xclip() -> tuple[bytes, str] | None:
    listed = _run(["xclip", "-selection", "clipboard", "-t", "TARGETS", "-o"], LIST_SECONDS)
    chosen = _preferred(listed.decode("utf-8", "replace").splitlines()) if listed else None
    for mime in dict.fromkeys([*([chosen] if chosen else []), *IMAGE_TYPES]):
        data = _run(["xclip", "-selection", "clipboard", "-t", mime, "-o"], READ_SECONDS)
        if data:
            return data, mime
    return None


def read_clipboard_image(env: Mapping[str, str] | None = None) -> tuple[bytes, str] | None:
    """(bytes, mime type) of the image on the clipboard; None when there is none."""
    env = os.environ if env is None else env
    if env.get("TERMUX_VERSION"):
        return None
    wayland = bool(env.get("WAYLAND_DISPLAY")) or env.get("XDG_SESSION_TYPE") == "wayland"
    return (_wl_paste() or _xclip()) if wayland else _xclip()


def save_clipboard_image(env: Mapping[str, str] | None = None) -> str | None:
    """The clipboard's image written to `$TMPDIR/pi-clipboard-<uuid>.<ext>`: its path, or None."""
    image = read_clipboard_image(env)
    if image is None:
        return None
    data, mime = image
    path = os.path.join(tempfile.gettempdir(), f"pi-clipboard-{uuid.uuid4()}.{EXTENSIONS[mime]}")
    with open(path, "wb") as handle:
        handle.write(data)
    return path


async def paste_clipboard_image(insert: Callable[[str], Any]) -> None:
    """Save the clipboard's image (in a thread: the tools may take seconds) and `insert` its
    path; nothing happens when there is no image or it cannot be saved."""
    try:
        path = await asyncio.to_thread(save_clipboard_image)
    except OSError:
        return
    if path:
        insert(path)
