"""Tool back-ends over the client's `fs/*` methods: read, write and edit see and change the
editor's buffers (unsaved changes included) instead of the files on disk."""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable
from pathlib import Path

# Binary files are not text buffers: `read` of an image still comes from the disk.
BINARY_SUFFIXES = {".png", ".jpg", ".jpeg", ".gif", ".webp", ".bmp", ".ico", ".pdf"}

ReadText = Callable[[str], Awaitable[str]]
WriteText = Callable[[str, str], Awaitable[None]]


class ClientFiles:
    """Read, write and edit operations that ask the ACP client (pi's Read/Write/EditOperations)."""

    def __init__(self, read_text: ReadText | None, write_text: WriteText | None) -> None:
        self._read_text = read_text
        self._write_text = write_text

    async def access(self, path: str) -> None:
        """Raise FileNotFoundError unless the client (or the disk, for binaries) has `path`."""
        await self.read_file(path)

    async def read_file(self, path: str) -> bytes:
        """The buffer's text of `path`, encoded as UTF-8."""
        if self._read_text is None or Path(path).suffix.lower() in BINARY_SUFFIXES:
            return Path(path).read_bytes()
        try:
            return (await self._read_text(path)).encode("utf-8")
        except Exception as error:
            raise FileNotFoundError(f"{path}: {error}") from error

    async def mkdir(self, path: str) -> None:
        """Create the folder on disk (the client writes files, not folders)."""
        os.makedirs(path, exist_ok=True)

    async def write_file(self, path: str, content: bytes) -> None:
        """Hand the new text of `path` to the client, which saves it."""
        if self._write_text is None:
            Path(path).write_bytes(content)
            return
        await self._write_text(path, content.decode("utf-8", errors="replace"))
