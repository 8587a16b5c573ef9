"""Noticing that the reader of stdout went away (a closed pipe), without writing to it."""

from __future__ import annotations

import asyncio
import os
import stat
from collections.abc import Callable


def watch_hangup(fd: int, on_hangup: Callable[[], None]) -> Callable[[], None] | None:
    """Call `on_hangup` once when the reading end of the pipe `fd` is closed.

    The event loop's selector reports an error on a pipe's writing end when its reader closes
    it, and a pipe's writing end never becomes readable otherwise, so a read watch on `fd` fires
    exactly then. Only pipes are watched (None for files, terminals and sockets: a socket whose
    peer stops sending also turns readable, which would wake the loop without end). Returns the
    function that stops watching.
    """
    try:
        if not stat.S_ISFIFO(os.fstat(fd).st_mode):
            return None
    except OSError:
        return None
    loop = asyncio.get_running_loop()

    def stop() -> None:
        loop.remove_reader(fd)

    def fired() -> None:
        stop()
        on_hangup()

    try:
        loop.add_reader(fd, fired)
    except (OSError, ValueError, NotImplementedError):  # a loop or platform without fd watches
        return None
    return stop
