"""Noticing that the reader of stdout went away (a closed pipe or socket), without writing."""

from __future__ import annotations

import asyncio
import os
import stat
from collections.abc import Callable


def watch_hangup(fd: int, on_hangup: Callable[[], None]) -> Callable[[], None] | None:
    """Call `on_hangup` once when the reading end of the pipe or socket `fd` is closed.

    The event loop's selector reports an error on a pipe's writing end when its reader closes
    it (a pipe's writing end never becomes readable otherwise), so a read watch on `fd` fires
    exactly then. A socket's reader going away makes it readable too; it is checked with a
    zero-timeout poll. Files and terminals are not watched (None). Returns the function that
    stops watching.
    """
    try:
        mode = os.fstat(fd).st_mode
    except OSError:
        return None
    if not (stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)):
        return None
    loop = asyncio.get_running_loop()

    def stop() -> None:
        loop.remove_reader(fd)

    def fired() -> None:
        if stat.S_ISSOCK(mode) and not _hung_up(fd):
            return
        stop()
        on_hangup()

    try:
        loop.add_reader(fd, fired)
    except (OSError, ValueError, NotImplementedError):  # a loop or platform without fd watches
        return None
    return stop


def _hung_up(fd: int) -> bool:
    """Whether `fd` reports an error or hang-up right now."""
    import select

    poller = select.poll()
    poller.register(fd, select.POLLOUT)
    return any(events & (select.POLLERR | select.POLLHUP) for _, events in poller.poll(0))
