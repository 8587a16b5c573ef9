"""Ctrl+G: the editor's text edited in $VISUAL / $EDITOR, in the terminal the REPL lends it."""

from __future__ import annotations

import os
import shlex
import subprocess
import tempfile
from collections.abc import Callable

from prompt_toolkit.application import run_in_terminal
from prompt_toolkit.buffer import Buffer

from pi_core.modes.interactive.keyboard_protocol import KeyboardProtocol


def configured_editor() -> str | None:
    """The editor command the environment names, if any."""
    return os.environ.get("VISUAL") or os.environ.get("EDITOR")


async def edit_externally(
    editor: str, text: str, buffer: Buffer, drain: Callable[[], None], keyboard: KeyboardProtocol
) -> None:
    """Open `text` in `editor`; when it exits with 0, the file's text replaces the buffer's."""

    def run() -> None:
        drain()
        with tempfile.NamedTemporaryFile("w", suffix=".pi.md", delete=False) as handle:
            handle.write(text)
            path = handle.name
        try:
            code = subprocess.call([*shlex.split(editor), path])
            if code == 0:
                with open(path, encoding="utf-8") as edited:
                    buffer.text = edited.read().rstrip("\n")
                    buffer.cursor_position = len(buffer.text)
        finally:
            os.unlink(path)

    keyboard.stop()  # the editor gets the terminal's plain key codes
    try:
        await run_in_terminal(run, in_executor=True)
    finally:
        keyboard.start()
