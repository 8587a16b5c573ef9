"""The local back-end of the built-in tools (this machine's files and shell), and the operations a
tool call runs on: the session's own (pi_core.tools.ToolOperations) with local ones filling in.

The tools keep a streaming fast path for these local classes (bounded memory on huge files);
any other implementation goes through the protocol methods only. find's and grep's local
back-ends live beside their tools (they walk folders with ripgrep).
"""

from __future__ import annotations

import asyncio
import errno
import os
import stat
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pi_core.tools import (
    BashExecResult,
    BashSpawnContext,
    ToolOperations,
)
from pi_plugin_tools.files import replace_file
from pi_plugin_tools.process import run_in_shell

if TYPE_CHECKING:
    from pi_core.abort import AbortSignal

__all__ = [
    "LocalBashOperations",
    "LocalEditOperations",
    "LocalLsOperations",
    "LocalReadOperations",
    "LocalWriteOperations",
    "apply_spawn_hook",
    "is_local_directory",
    "read_local_bytes",
    "session_operations",
]


def read_local_bytes(path: str) -> bytes:
    """Return the bytes of a file on this machine."""
    with open(path, "rb") as handle:
        return handle.read()


def _check_readable(path: str) -> None:
    if os.path.isdir(path):
        raise IsADirectoryError(errno.EISDIR, "is a directory", path)
    os.stat(path)
    if not os.access(path, os.R_OK):
        raise PermissionError(errno.EACCES, "permission denied", path)


def _check_editable(path: str) -> None:
    _check_readable(path)
    if not os.access(path, os.W_OK):
        raise PermissionError(errno.EACCES, "permission denied", path)


def is_local_directory(path: str) -> bool:
    """Return whether `path` is a folder on this machine (OSError if it is nothing)."""
    return stat.S_ISDIR(os.stat(path).st_mode)


class LocalReadOperations:
    """`read` on this machine's files."""

    async def access(self, path: str) -> None:
        """Raise unless `path` is a readable file."""
        await asyncio.to_thread(_check_readable, path)

    async def read_file(self, path: str) -> bytes:
        """Return the file's bytes."""
        return await asyncio.to_thread(read_local_bytes, path)


class LocalWriteOperations:
    """`write` on this machine's files (atomic, keeping the file's owner and mode)."""

    async def mkdir(self, path: str) -> None:
        """Create the folder and its parents."""
        await asyncio.to_thread(os.makedirs, path, exist_ok=True)

    async def write_file(self, path: str, content: bytes) -> None:
        """Replace the file's contents."""
        await asyncio.to_thread(replace_file, path, content)


class LocalEditOperations:
    """`edit` on this machine's files."""

    async def access(self, path: str) -> None:
        """Raise unless `path` is a file that can be read and written."""
        await asyncio.to_thread(_check_editable, path)

    async def read_file(self, path: str) -> bytes:
        """Return the file's bytes."""
        return await asyncio.to_thread(read_local_bytes, path)

    async def write_file(self, path: str, content: bytes) -> None:
        """Replace the file's contents."""
        await asyncio.to_thread(replace_file, path, content)


class LocalBashOperations:
    """`bash` through this machine's shell, in a process group of its own."""

    def __init__(self, shell: list[str] | None = None) -> None:
        self.shell = shell

    async def exec(
        self,
        command: str,
        cwd: str,
        *,
        on_data: Callable[[bytes], None],
        signal: AbortSignal | None = None,
        timeout: float | None = None,
        env: dict[str, str] | None = None,
    ) -> BashExecResult:
        """Run `command` with the user's shell (or `self.shell`)."""
        outcome = await run_in_shell(command, cwd, on_data, signal, timeout, env, self.shell)
        return BashExecResult(outcome.exit_code, outcome.stopped, outcome.signal_number)


class LocalLsOperations:
    """`ls` on this machine."""

    async def is_directory(self, path: str) -> bool:
        """Return whether `path` is a folder."""
        return await asyncio.to_thread(is_local_directory, path)

    async def readdir(self, path: str) -> list[str]:
        """Return the folder's entry names."""
        return await asyncio.to_thread(os.listdir, path)


def session_operations(ctx: Any) -> ToolOperations:
    """Return the operations the session supplies (kinds left None: the tool runs locally)."""
    operations: ToolOperations | None = getattr(ctx, "tool_operations", None)
    return operations if operations is not None else ToolOperations()


def apply_spawn_hook(operations: ToolOperations, command: str, cwd: str) -> BashSpawnContext:
    """Return the command, cwd and environment a bash call runs with, after the spawn hook."""
    spawn = BashSpawnContext(command, cwd, dict(os.environ))
    return operations.spawn_hook(spawn) if operations.spawn_hook is not None else spawn
