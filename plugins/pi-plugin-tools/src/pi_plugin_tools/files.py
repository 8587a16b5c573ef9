"""Writing files safely: one writer per file at a time; atomic writes come from pi_core."""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import AsyncIterator

from pi_core.tools import atomic_write, write_target

__all__ = ["atomic_write", "file_mutation_lock", "write_target"]

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
