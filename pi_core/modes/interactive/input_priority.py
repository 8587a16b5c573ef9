"""The keyboard first: while an answer streams, a key press goes ahead of the stream's work.

- `keyboard_first`: when the terminal has input, the event loop reads it before other ready
  work. asyncio runs the callbacks that are ready in the order they were queued, and a file
  descriptor's reader is queued only when the loop polls, behind whatever the previous pass
  queued. While an answer streams that is the stream parser's next 2 ms slice (and the
  markdown renderer's), so a key press waited for the slice running when it arrived and then
  for another one. Moving the terminal's reader to the front of the queue leaves it only the
  slice that is running.
- `ScrollbackHold`: while the user types during a stream, finished lines wait for a pause in
  the typing, and then come a batch at a time. The terminal takes bytes in order, so a key's
  echo written right after a frame's lines reaches the screen only once the terminal has
  parsed them (tens of KB while a fast answer streams, more for highlighted code: several
  ms even for tmux, per 10 KB).
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


class ScrollbackHold:
    """Paces finished lines while the user types during a stream: none while keys keep coming
    (a key less than `pause` seconds ago, and never for more than `longest` seconds in a row),
    then at most `batch` characters a frame until `settle` seconds after the last key; all at
    once otherwise. The live region keeps showing the answer's last lines meanwhile."""

    def __init__(
        self,
        pause: float = 0.05,
        longest: float = 0.25,
        batch: int = 16 * 1024,
        settle: float = 0.5,
    ) -> None:
        self.pause = pause
        self.longest = longest
        self.batch = batch
        self.settle = settle
        self._last_key = float("-inf")
        self._held_since: float | None = None

    def key_pressed(self, now: float) -> None:
        """Note a key press at `now` (`time.monotonic()`)."""
        self._last_key = now

    def typing(self, now: float) -> bool:
        """Whether a key came less than `pause` seconds before `now`."""
        return now - self._last_key < self.pause

    def allowance(self, now: float, streaming: bool) -> int | None:
        """How many characters of finished lines may be printed at `now`: 0 (they wait), a
        batch, or None (all of them)."""
        if not streaming or now - self._last_key >= self.settle:
            self._held_since = None
            return None
        if self.typing(now):
            if self._held_since is None:
                self._held_since = now
            if now - self._held_since < self.longest:
                return 0
        self._held_since = None
        return self.batch
