"""The frame timer: the stream advanced, finished blocks printed above, the live region redrawn.

Session events only record state; this timer renders and prints, so a slow terminal never slows
the agent.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any, Protocol

from prompt_toolkit.application import Application

from pi_core.modes.interactive.host import DialogHost, RelayoutHost
from pi_core.modes.interactive.input_priority import ScrollbackHold
from pi_core.modes.interactive.relayout import LayoutWatch, relayout

FRAME_SECONDS = 1 / 30
RENDER_SLICE_SECONDS = 0.002  # rendering work done between two looks at the keyboard
MAX_TERMINAL_BACKLOG = 256 * 1024  # bytes the terminal may lag before frames are skipped


class FrameHost(RelayoutHost, DialogHost, Protocol):
    """What the frame timer draws: the screen, its dialog, and the chat printed again."""


class FrameTimer:
    """Draws the REPL at most 30 times a second, and only when something changed."""

    def __init__(
        self, host: FrameHost, application: Application[int], backlog: Callable[[], int]
    ) -> None:
        self._host = host
        self._application = application
        self._backlog = backlog
        self._dirty = False
        self._redraw_start = 0.0
        self._redraw_seconds = 0.0  # a moving average: how long a redraw takes here
        self._layout_watch = LayoutWatch()
        self._scrollback_hold = ScrollbackHold()  # finished lines wait while the user types
        application.key_processor.before_key_press += self._key_pressed
        application.before_render += self._redraw_started
        application.after_render += self._redraw_done

    def request(self) -> None:
        """Redraw on the next frame."""
        self._dirty = True

    def relayout_soon(self) -> None:
        """Print the whole chat again on the next frame."""
        self._layout_watch.request()

    async def run(self) -> None:
        """The frame timer: advance the stream, print finished blocks, redraw.

        Rendering is cut in slices of a few milliseconds with the loop served in between, so a
        key press waits for one slice at most. Frames come at most 30 times a second and keep
        redraws to about a quarter of the time (a slow machine gets fewer frames, not a slower
        agent); a terminal that lags skips frames instead of queueing them. While the user types
        during a stream, finished lines wait for a pause in the typing and then come a batch
        at a time (`ScrollbackHold`).
        """
        host, app, watch = self._host, self._application, self._layout_watch
        transcript = host.transcript
        while True:
            await asyncio.sleep(max(FRAME_SECONDS, 4 * self._redraw_seconds))
            if self._backlog() > MAX_TERMINAL_BACKLOG:
                continue
            frame_end = time.perf_counter() + FRAME_SECONDS
            width = host.columns()
            if watch.due(width) and app.is_running and not host.dialog:
                await relayout(host, width)  # the width changed (or clearOnShrink): as pi does
                watch.done(width)
            while transcript.advance(width, deadline=time.perf_counter() + RENDER_SLICE_SECONDS):
                if time.perf_counter() > frame_end:
                    break
                await asyncio.sleep(0)
            state = host.state
            streaming = host.session.is_streaming
            busy = streaming or state.working or state.retry_until or host.dialog
            now = time.monotonic()
            allowance = self._scrollback_hold.allowance(now, streaming)
            if transcript.out and allowance != 0:
                watch.printed()
                await host.print_above(transcript.take_out(allowance))
            elif (busy or self._dirty) and app.is_running:
                if self._scrollback_hold.typing(now):
                    continue  # each key press redraws it all: the next one shows this frame
                self._dirty = False
                app.invalidate()

    def _key_pressed(self, _: Any) -> None:
        self._scrollback_hold.key_pressed(time.monotonic())

    def _redraw_started(self, _: Any) -> None:
        self._redraw_start = time.perf_counter()

    def _redraw_done(self, _: Any) -> None:
        took = time.perf_counter() - self._redraw_start
        self._redraw_seconds = 0.8 * self._redraw_seconds + 0.2 * took
        if self._host.session.settings.get_clear_on_shrink():
            size = self._application.output.get_size()
            layout = self._application.layout
            rows = layout.container.preferred_height(size.columns, size.rows).preferred
            self._layout_watch.rendered(rows)
