"""The local back-end of the built-in tools (this machine's files and shell), and the operations a
tool call runs on: the session's own (pi_core.tools.ToolOperations) with local ones filling in.

The tools keep a streaming fast path for these local classes (bounded memory on huge files,
ripgrep's own walk); any other implementation goes through the protocol methods only.
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
    GrepHit,
    GrepQuery,
    ToolOperations,
)
from pi_plugin_tools.files import replace_file
from pi_plugin_tools.process import run_in_shell

if TYPE_CHECKING:
    from pi_core.abort import AbortSignal

__all__ = [
    "LOCAL_OPERATIONS",
    "LocalBashOperations",
    "LocalEditOperations",
    "LocalFindOperations",
    "LocalGrepOperations",
    "LocalLsOperations",
    "LocalReadOperations",
    "LocalWriteOperations",
    "apply_spawn_hook",
    "operations_for",
]


def _read_bytes(path: str) -> bytes:
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


def _is_directory(path: str) -> bool:
    return stat.S_ISDIR(os.stat(path).st_mode)


class LocalReadOperations:
    """`read` on this machine's files."""

    async def access(self, path: str) -> None:
        """Raise unless `path` is a readable file."""
        await asyncio.to_thread(_check_readable, path)

    async def read_file(self, path: str) -> bytes:
        """Return the file's bytes."""
        return await asyncio.to_thread(_read_bytes, path)


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
        return await asyncio.to_thread(_read_bytes, path)

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


class LocalFindOperations:
    """`find` on this machine: ripgrep's file walk (ignore files honoured)."""

    async def is_directory(self, path: str) -> bool:
        """Return whether `path` is a folder."""
        return await asyncio.to_thread(_is_directory, path)

    async def glob(self, pattern: str, cwd: str, *, limit: int) -> list[str]:
        """Return the matching paths under `cwd` (one more than `limit` when cut)."""
        from pi_plugin_tools.find import find_paths

        found, _ = await find_paths(cwd, pattern, limit + 1)
        return found


class LocalGrepOperations:
    """`grep` on this machine, with ripgrep."""

    async def is_directory(self, path: str) -> bool:
        """Return whether `path` is a folder."""
        return await asyncio.to_thread(_is_directory, path)

    async def search(self, query: GrepQuery) -> list[GrepHit]:
        """Run ripgrep for the query."""
        from pi_plugin_tools.grep import ripgrep_hits

        return await ripgrep_hits(query)

    async def read_file(self, path: str) -> str:
        """Return the file's text (undecodable bytes replaced)."""
        data = await asyncio.to_thread(_read_bytes, path)
        return data.decode("utf-8", "replace")


class LocalLsOperations:
    """`ls` on this machine."""

    async def is_directory(self, path: str) -> bool:
        """Return whether `path` is a folder."""
        return await asyncio.to_thread(_is_directory, path)

    async def readdir(self, path: str) -> list[str]:
        """Return the folder's entry names."""
        return await asyncio.to_thread(os.listdir, path)


LOCAL_OPERATIONS = ToolOperations(
    read=LocalReadOperations(),
    write=LocalWriteOperations(),
    edit=LocalEditOperations(),
    bash=LocalBashOperations(),
    grep=LocalGrepOperations(),
    find=LocalFindOperations(),
    ls=LocalLsOperations(),
)
"""Every tool on this machine (no spawn hook)."""


def operations_for(ctx: Any) -> ToolOperations:
    """Return the operations a tool call runs on: the session's, local ones for the rest."""
    session: ToolOperations | None = getattr(ctx, "tool_operations", None)
    return session.or_else(LOCAL_OPERATIONS) if session is not None else LOCAL_OPERATIONS


def apply_spawn_hook(operations: ToolOperations, command: str, cwd: str) -> BashSpawnContext:
    """Return the command, cwd and environment a bash call runs with, after the spawn hook."""
    spawn = BashSpawnContext(command, cwd, dict(os.environ))
    return operations.spawn_hook(spawn) if operations.spawn_hook is not None else spawn
