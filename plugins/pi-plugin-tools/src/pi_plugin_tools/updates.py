"""Throttled partial results: the tail of a running command's output, at most every 100 ms."""

from __future__ import annotations

import asyncio
import time

from pi_core.messages import TextContent
from pi_core.tools import BashToolDetails, ToolResult, ToolUpdateCallback
from pi_plugin_tools.output import OutputAccumulator

UPDATE_THROTTLE_SECONDS = 0.1
"""Partial output goes to `on_update` at most this often."""


class ThrottledUpdates:
    """Sends throttled snapshots of the output to `on_update`."""

    def __init__(self, output: OutputAccumulator, on_update: ToolUpdateCallback | None) -> None:
        self._output = output
        self._on_update = on_update
        self._dirty = False
        self._last = 0.0
        self._timer: asyncio.TimerHandle | None = None

    def start(self) -> None:
        """Tell the listener the command started (an empty partial result, as pi sends)."""
        if self._on_update is not None:
            self._on_update(ToolResult(content=[], details=None))

    def schedule(self) -> None:
        """Note new output; send it now, or once the throttle interval has passed."""
        if self._on_update is None:
            return
        self._dirty = True
        delay = UPDATE_THROTTLE_SECONDS - (time.monotonic() - self._last)
        if delay <= 0:
            self.cancel()
            self.emit()
        elif self._timer is None:
            self._timer = asyncio.get_running_loop().call_later(delay, self._fire)

    def _fire(self) -> None:
        self._timer = None
        self.emit()

    def emit(self) -> None:
        """Send the current tail of the output if anything new arrived."""
        if self._on_update is None or not self._dirty:
            return
        self._dirty = False
        self._last = time.monotonic()
        snapshot = self._output.snapshot(persist_if_truncated=True)
        truncation = snapshot.truncation if snapshot.truncation.truncated else None
        self._on_update(
            ToolResult(
                content=[TextContent(text=snapshot.content or "")],
                details=BashToolDetails(
                    truncation=truncation, full_output_path=snapshot.full_output_path
                ),
            )
        )

    def cancel(self) -> None:
        """Drop a pending timed update."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
