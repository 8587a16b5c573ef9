"""Where the built-in tools run: the replaceable operations behind read, write, edit, bash, grep,
find and ls (pi's `ReadOperations`, `BashOperations`, … and the bash `spawnHook`).

Every method is async and takes absolute paths as plain strings (the tools resolve the LLM's
path against the session cwd first); nothing here assumes the paths are on this machine, so a
back-end may be a container, a remote host or an editor's buffers. pi-plugin-tools supplies
the local implementations; a plugin replaces any subset through the `register_tool_operations`
hook, an SDK user through `create_agent_session(tool_operations=...)`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields, replace
from typing import TYPE_CHECKING, Literal, Protocol

if TYPE_CHECKING:
    from pi_core.abort import AbortSignal

__all__ = [
    "BashExecResult",
    "BashOperations",
    "BashSpawnContext",
    "BashSpawnHook",
    "EditOperations",
    "FindOperations",
    "GrepHit",
    "GrepOperations",
    "GrepQuery",
    "LsOperations",
    "ReadOperations",
    "ToolOperations",
    "WriteOperations",
]


class ReadOperations(Protocol):
    """What `read` needs: a file's bytes."""

    async def access(self, path: str) -> None:
        """Raise FileNotFoundError, IsADirectoryError or PermissionError if `path` is unreadable."""
        ...

    async def read_file(self, path: str) -> bytes:
        """Return the whole contents of the file at `path`."""
        ...


class WriteOperations(Protocol):
    """What `write` needs: creating folders and replacing a file's contents."""

    async def mkdir(self, path: str) -> None:
        """Create the folder `path` and its parents (no error if it exists)."""
        ...

    async def write_file(self, path: str, content: bytes) -> None:
        """Give the file at `path` exactly `content` (creating it if missing)."""
        ...


class EditOperations(Protocol):
    """What `edit` needs: reading a file, checking it is writable, writing it back."""

    async def access(self, path: str) -> None:
        """Raise FileNotFoundError or PermissionError unless `path` is readable and writable."""
        ...

    async def read_file(self, path: str) -> bytes:
        """Return the whole contents of the file at `path`."""
        ...

    async def write_file(self, path: str, content: bytes) -> None:
        """Give the file at `path` exactly `content`."""
        ...


@dataclass(frozen=True)
class BashExecResult:
    """How a command ended: its exit code (None if killed), or why the back-end stopped it."""

    exit_code: int | None
    stopped: Literal["aborted", "timeout"] | None = None
    signal_number: int | None = None


class BashOperations(Protocol):
    """What `bash` needs: running a shell command and streaming its merged output."""

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
        """Run `command` in `cwd`, passing stdout and stderr to `on_data` as they come."""
        ...


@dataclass(frozen=True)
class BashSpawnContext:
    """A command about to be run: a spawn hook may return a changed copy."""

    command: str
    cwd: str
    env: dict[str, str]


BashSpawnHook = Callable[[BashSpawnContext], BashSpawnContext]
"""Adjusts the command, cwd or environment of every `bash` call before it runs."""


class FindOperations(Protocol):
    """What `find` needs: whether a folder exists, and the paths under it matching a glob."""

    async def is_directory(self, path: str) -> bool:
        """Return whether `path` is a folder; raise FileNotFoundError if it does not exist."""
        ...

    async def glob(self, pattern: str, cwd: str, *, limit: int) -> list[str]:
        """Return up to `limit + 1` paths under `cwd` matching `pattern`, sorted, relative to
        `cwd`, folders ending in `/` (one more than `limit` tells the tool it was cut)."""
        ...


@dataclass(frozen=True)
class GrepQuery:
    """One `grep` search, as the LLM asked for it."""

    pattern: str
    path: str
    ignore_case: bool = False
    literal: bool = False
    glob: str | None = None
    limit: int = 100


@dataclass(frozen=True)
class GrepHit:
    """One matching line: the absolute path of its file, its 1-based number and its text."""

    path: str
    line_number: int
    line: str


class GrepOperations(Protocol):
    """What `grep` needs: the search itself, and the files' text for context lines."""

    async def is_directory(self, path: str) -> bool:
        """Return whether `path` is a folder; raise FileNotFoundError if it does not exist."""
        ...

    async def search(self, query: GrepQuery) -> list[GrepHit]:
        """Return up to `query.limit + 1` matching lines (one more tells the tool it was cut)."""
        ...

    async def read_file(self, path: str) -> str:
        """Return the text of the file at `path` (for context lines)."""
        ...


class LsOperations(Protocol):
    """What `ls` needs: whether a path is a folder, and a folder's entries."""

    async def is_directory(self, path: str) -> bool:
        """Return whether `path` is a folder; raise FileNotFoundError if it does not exist."""
        ...

    async def readdir(self, path: str) -> list[str]:
        """Return the names in the folder `path` (no `.` or `..`)."""
        ...


@dataclass(frozen=True)
class ToolOperations:
    """A (partial) set of operations: each field left None falls back to the next source."""

    read: ReadOperations | None = None
    write: WriteOperations | None = None
    edit: EditOperations | None = None
    bash: BashOperations | None = None
    grep: GrepOperations | None = None
    find: FindOperations | None = None
    ls: LsOperations | None = None
    spawn_hook: BashSpawnHook | None = None

    def kinds(self) -> list[str]:
        """Return the names of the kinds these operations supply."""
        return [f.name for f in fields(self) if getattr(self, f.name) is not None]

    def or_else(self, fallback: ToolOperations) -> ToolOperations:
        """Return these operations with every missing kind taken from `fallback`."""
        missing = {
            f.name: getattr(fallback, f.name) for f in fields(self) if getattr(self, f.name) is None
        }
        return replace(self, **missing)
