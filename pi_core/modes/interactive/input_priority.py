"""Keyboard first: when the terminal has input, the event loop reads it before other ready work.

asyncio runs the callbacks that are ready in the order they were queued, and a file descriptor's
reader is queued only when the loop polls, behind whatever the previous pass queued. While an
answer streams that is the stream parser's next 2 ms slice (and the markdown renderer's), so a
key press waited for the slice running when it arrived and then for another one. Moving the
terminal's reader to the front of the queue leaves it only the slice that is running.
"""

from __future__ import annotations

import asyncio
import selectors
from collections import deque
from collections.abc import Callable
from typing import Any


def keyboard_first(loop: asyncio.AbstractEventLoop, fd: int) -> Callable[[], None]:
    """Make `loop` run the reader of `fd` ahead of the callbacks already queued when `fd` turns
    readable; returns a function that undoes it. A loop without the selector loop's internals
    (another implementation) is left as it is."""
    process_events: Any = getattr(loop, "_process_events", None)
    ready: Any = getattr(loop, "_ready", None)
    if process_events is None or not isinstance(ready, deque):
        return lambda: None

    def reader_first(event_list: list[tuple[selectors.SelectorKey, int]]) -> None:
        process_events(event_list)
        for key, mask in event_list:
            if key.fd != fd or not mask & selectors.EVENT_READ:
                continue
            reader = key.data[0] if isinstance(key.data, tuple) else None
            if reader is None or not ready or ready[0] is reader:
                continue
            try:
                ready.remove(reader)
            except ValueError:  # not queued (a cancelled reader is dropped by the loop)
                continue
            ready.appendleft(reader)

    loop._process_events = reader_first  # type: ignore[attr-defined]

    def undo() -> None:
        if getattr(loop, "_process_events", None) is reader_first:
            del loop._process_events  # type: ignore[attr-defined]

    return undo
