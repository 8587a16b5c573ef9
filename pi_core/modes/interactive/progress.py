"""The terminal's own progress indicator (OSC 9;4) while the agent works or compacts, with
`terminal.showTerminalProgress` on (off by default), as pi shows it."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from pi_core.agent_session.session_events import CompactionEndEvent, CompactionStartEvent
from pi_core.events.agent import AgentEndEvent, AgentStartEvent

BUSY = "\x1b]9;4;3\x07"  # indeterminate progress
IDLE = "\x1b]9;4;0;\x07"  # no progress
KEEPALIVE_SECONDS = 1.0  # some terminals drop the indicator when it is not repeated
_BOUNDS = (AgentStartEvent, CompactionStartEvent, AgentEndEvent, CompactionEndEvent)


class TerminalProgress:
    """Shows the indicator from an agent or compaction start to its end."""

    def __init__(self, write: Callable[[str], None], enabled: Callable[[], bool]) -> None:
        self._write = write
        self._enabled = enabled
        self._keepalive: asyncio.TimerHandle | None = None

    def on_event(self, event: Any) -> None:
        """Start or stop the indicator on the events that bound a run."""
        if not isinstance(event, _BOUNDS) or not self._enabled():
            return
        if isinstance(event, AgentStartEvent | CompactionStartEvent):
            self._show()
        else:
            self.stop()

    def stop(self) -> None:
        """Clear the indicator (at the end of a run, and on exit if it is shown)."""
        if self._keepalive is not None:
            self._keepalive.cancel()
            self._keepalive = None
        self._write(IDLE)

    @property
    def shown(self) -> bool:
        """Whether the indicator is on."""
        return self._keepalive is not None

    def _show(self) -> None:
        self._write(BUSY)
        if self._keepalive is not None:
            self._keepalive.cancel()
        self._keepalive = asyncio.get_running_loop().call_later(KEEPALIVE_SECONDS, self._show)
