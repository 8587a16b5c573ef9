"""Writing files safely: one writer per file at a time, and each write landing as the user's own
would (atomic writes come from pi_core)."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import os
from collections.abc import AsyncIterator, Callable

from pi_core.tools import atomic_write, write_target

__all__ = ["file_mutation_lock", "replace_file", "write_target"]

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


def replace_file(path: str, data: bytes, should_commit: Callable[[], bool] | None = None) -> bool:
    """Give `path` the contents `data`, with the rights and identity the user's own write keeps.

    A file the user may not write is refused with EACCES, as pi's write does (a rename would only
    check the folder). A new file, or one the user owns with a single link, is replaced atomically
    (its mode kept). Another owner's file or a hard-linked one is written in place, so its owner,
    mode and other links stay. `should_commit` is asked just before the file changes; False
    leaves it untouched. Returns whether the file changed.
    """
    target = write_target(path)
    try:
        info = os.stat(target)
    except FileNotFoundError:
        return atomic_write(target, data, should_commit)
    if not os.access(target, os.W_OK):
        refused = PermissionError(f"EACCES: permission denied, open '{path}'")  # pi's words
        refused.errno = errno.EACCES
        raise refused
    if info.st_nlink == 1 and info.st_uid == os.geteuid():
        return atomic_write(target, data, should_commit)
    if should_commit is not None and not should_commit():
        return False
    with open(target, "r+b") as handle:
        handle.write(data)
        handle.truncate()
        handle.flush()
        os.fsync(handle.fileno())
    return True
