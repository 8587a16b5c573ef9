"""Writing files safely: one writer per file at a time, and never half a file on disk."""

from __future__ import annotations

import asyncio
import contextlib
import os
import stat
import tempfile
from collections.abc import AsyncIterator, Callable
from typing import BinaryIO

_locks: dict[str, asyncio.Lock] = {}
_users: dict[str, int] = {}


def _queue_key(path: str) -> str:
    try:
        return os.path.realpath(path)
    except OSError:
        return os.path.abspath(path)


@contextlib.asynccontextmanager
async def file_mutation_lock(path: str) -> AsyncIterator[None]:
    """Serialize writes and edits of the same file; different files proceed in parallel."""
    key = _queue_key(path)
    lock = _locks.setdefault(key, asyncio.Lock())
    _users[key] = _users.get(key, 0) + 1
    try:
        async with lock:
            yield
    finally:
        _users[key] -= 1
        if _users[key] == 0:
            del _users[key]
            _locks.pop(key, None)


def _current_umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _write_payload(handle: BinaryIO, data: bytes) -> None:
    """Write all of `data` to the temporary file (a seam for tests that simulate a crash)."""
    handle.write(data)


def write_target(path: str) -> str:
    """Return the file a write to `path` lands in: the target of a symlink, else `path`."""
    return os.path.realpath(path) if os.path.islink(path) else path


def atomic_write(path: str, data: bytes, should_commit: Callable[[], bool] | None = None) -> bool:
    """Write `data` to a temporary file beside `path`, then rename it over `path`.

    A crash or error at any point leaves either the old file or the new one, never a mix.
    The file keeps its permission bits; a new file gets the usual umask-based ones.
    `should_commit` is asked just before the rename; False discards the write. Returns
    whether the file was replaced.
    """
    target = write_target(path)
    folder = os.path.dirname(target) or "."
    try:
        mode = stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        mode = 0o666 & ~_current_umask()
    fd, temp_path = tempfile.mkstemp(
        prefix=f".{os.path.basename(target)}.", suffix=".tmp", dir=folder
    )
    try:
        with os.fdopen(fd, "wb") as handle:
            _write_payload(handle, data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temp_path, mode)
        if should_commit is not None and not should_commit():
            os.unlink(temp_path)
            return False
        os.replace(temp_path, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp_path)
        raise
    _sync_folder(folder)
    return True


def _sync_folder(folder: str) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
