"""When a session-level run settles: the agent, its retries, compactions and follow-ups are done.

`agent_end` closes one low-level agent run, but a retry, an overflow compaction's continue or a
queued message can start another. Newer pi tells clients the session is done with an
`agent_settled` event, once per run that a prompt (or a plugin's triggered message) started;
runs that start inside a run (a plugin prompting from `agent_end`) settle with it.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

SettledListener = Callable[[bool], None]


class RunSettling:
    """Counts nested session-level runs and tells listeners when the outermost one settled."""

    def __init__(self) -> None:
        self._depth = 0
        self._aborted = False
        self._listeners: list[SettledListener] = []

    @property
    def active(self) -> bool:
        """Return whether a session-level run is under way."""
        return self._depth > 0

    def on_settled(self, listener: SettledListener) -> Callable[[], None]:
        """Call `listener(aborted)` each time a run settles; returns unsubscribe."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def note_abort(self) -> None:
        """Record that the running run was asked to abort (nothing happens when idle)."""
        if self._depth:
            self._aborted = True

    @asynccontextmanager
    async def run(self) -> AsyncIterator[None]:
        """Wrap a run from its start until it settled (also when it fails)."""
        if self._depth == 0:
            self._aborted = False
        self._depth += 1
        try:
            yield
        finally:
            self._depth -= 1
            if self._depth == 0:
                for listener in list(self._listeners):
                    listener(self._aborted)
