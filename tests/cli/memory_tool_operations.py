"""A plugin (loaded with `-e`) that runs every built-in tool on an in-memory filesystem and a
scripted shell, so a test can prove the tools never touch the disk."""

from __future__ import annotations

import fnmatch
import posixpath
import re
from collections.abc import Callable
from typing import Any

from pi_core import ExtensionContext, hookimpl
from pi_core.tools import BashExecResult, BashSpawnContext, GrepHit, GrepQuery, ToolOperations

FILES: dict[str, bytes] = {"notes.txt": b"hello from memory\nsecond line\n"}
"""The starting files, relative to the session cwd."""


class MemoryFs:
    """Files as a dict of absolute path -> bytes; folders are implied by the paths."""

    def __init__(self, cwd: str) -> None:
        self.files = {posixpath.join(cwd, name): data for name, data in FILES.items()}
        self.folders = {cwd}

    def _is_folder(self, path: str) -> bool:
        prefix = path.rstrip("/") + "/"
        return path in self.folders or any(name.startswith(prefix) for name in self.files)

    async def access(self, path: str) -> None:
        """Raise unless the file exists."""
        if path not in self.files:
            raise FileNotFoundError(path)

    async def read_file(self, path: str) -> bytes:
        """Return the file's bytes."""
        await self.access(path)
        return self.files[path]

    async def write_file(self, path: str, content: bytes) -> None:
        """Store the file."""
        self.files[path] = content

    async def mkdir(self, path: str) -> None:
        """Remember the folder."""
        self.folders.add(path)

    async def is_directory(self, path: str) -> bool:
        """Whether the path is a folder; FileNotFoundError if it is nothing."""
        if self._is_folder(path):
            return True
        if path in self.files:
            return False
        raise FileNotFoundError(path)

    async def readdir(self, path: str) -> list[str]:
        """The names directly in a folder."""
        prefix = path.rstrip("/") + "/"
        return sorted({n[len(prefix) :].split("/")[0] for n in self.files if n.startswith(prefix)})

    async def glob(self, pattern: str, cwd: str, *, limit: int) -> list[str]:
        """The files under `cwd` whose name matches."""
        prefix = cwd.rstrip("/") + "/"
        found = [n[len(prefix) :] for n in sorted(self.files) if n.startswith(prefix)]
        return [n for n in found if fnmatch.fnmatch(posixpath.basename(n), pattern)][: limit + 1]

    async def search(self, query: GrepQuery) -> list[GrepHit]:
        """Lines matching the query's pattern."""
        flags = re.IGNORECASE if query.ignore_case else 0
        regex = re.compile(re.escape(query.pattern) if query.literal else query.pattern, flags)
        hits: list[GrepHit] = []
        for name in sorted(self.files):
            for number, line in enumerate(self.files[name].decode().split("\n"), 1):
                if regex.search(line):
                    hits.append(GrepHit(name, number, line))
        return hits[: query.limit + 1]


class MemoryTextFs(MemoryFs):
    """The same files, read as text (grep's context lines)."""

    async def read_file(self, path: str) -> str:  # type: ignore[override]
        """Return the file's text."""
        return (await super().read_file(path)).decode()


class ScriptedBash:
    """A shell that answers every command with a fixed line, naming the command it got."""

    async def exec(
        self,
        command: str,
        cwd: str,
        *,
        on_data: Callable[[bytes], None],
        signal: Any = None,
        timeout: float | None = None,
        env: dict[str, str] | None = None,
    ) -> BashExecResult:
        """Report the command, its cwd and the spawn hook's variable instead of running it."""
        marker = (env or {}).get("MEMORY_MARK", "unset")
        on_data(f"scripted: {command} in {cwd} mark={marker}\n".encode())
        return BashExecResult(exit_code=0)


def _mark(spawn: BashSpawnContext) -> BashSpawnContext:
    return BashSpawnContext(spawn.command, spawn.cwd, {**spawn.env, "MEMORY_MARK": "hooked"})


@hookimpl
def register_tool_operations(register: Callable[..., None], ctx: ExtensionContext) -> None:
    """Run read, write, edit, ls, find, grep and bash in memory."""
    fs = MemoryFs(ctx.cwd)
    text_fs = MemoryTextFs(ctx.cwd)
    text_fs.files = fs.files  # one store, two views
    text_fs.folders = fs.folders
    register(
        ToolOperations(
            read=fs,
            write=fs,
            edit=fs,
            ls=fs,
            find=fs,
            grep=text_fs,
            bash=ScriptedBash(),
            spawn_hook=_mark,
        )
    )
