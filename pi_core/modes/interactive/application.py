"""The REPL's prompt_toolkit Application: key presses drawn at once, Ctrl+Z after a drain."""

from __future__ import annotations

import os
import signal
from typing import Any

from prompt_toolkit.application import Application, run_in_terminal

from pi_core.modes.interactive.default_keys import emacs_key_bindings
from pi_core.modes.interactive.keyboard_protocol import KeyboardProtocol


class ReplApplication(Application[int]):
    """prompt_toolkit's Application; Ctrl+Z first lets the terminal take the queued output, and
    a key press is drawn as soon as it is handled.

    prompt_toolkit queues the redraw behind whatever else is ready on the loop; while an answer
    streams that is a slice of stream parsing and one of markdown rendering, so the key's echo
    waited for both. Here the redraw runs right after the keys are handled, and the queued
    redraw that follows is skipped when nothing changed in between.
    """

    keyboard: KeyboardProtocol | None = None  # the key codes asked of the terminal

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # prompt_toolkit adds these defaults below the app's own bindings (the app passes none)
        self._default_bindings = emacs_key_bindings()
        self._drawn_ahead = False  # a redraw ran ahead of the one prompt_toolkit queued
        self._changed_since = False  # something asked for a redraw after that one
        processor = self.key_processor
        process_keys = processor.process_keys

        def process_keys_then_draw() -> None:
            process_keys()
            self.draw_now()

        processor.process_keys = process_keys_then_draw  # type: ignore[method-assign]

    def invalidate(self) -> None:
        """Ask for a redraw (prompt_toolkit's), remembering that something changed."""
        self._changed_since = True
        super().invalidate()

    def draw_now(self) -> None:
        """Draw a pending redraw at once instead of after the loop's queued work."""
        if not self._invalidated or not self.is_running or self.is_done:
            return
        if self.renderer.last_rendered_screen is None:
            return  # keys handed over from the early editor, before the first frame's set-up
        self._changed_since = False
        super()._redraw()
        self._drawn_ahead = True

    def _redraw(self, render_as_done: bool = False) -> None:
        if self._drawn_ahead and not render_as_done:
            self._drawn_ahead = False
            if not self._changed_since and self.renderer.last_rendered_screen is not None:
                return  # the queued redraw of what draw_now drew (and nothing erased it since)
        super()._redraw(render_as_done)

    def drain(self) -> None:
        """Replaced by the REPL's writer drain."""

    def suspend_to_background(self, suspend_group: bool = True) -> None:
        """Suspend the process (its group by default) once the screen is cleared."""
        if not hasattr(signal, "SIGTSTP"):
            return

        keyboard = self.keyboard

        def run() -> None:
            self.drain()
            os.kill(0 if suspend_group else os.getpid(), signal.SIGTSTP)

        if keyboard is None:
            run_in_terminal(run)
            return

        async def suspend() -> None:
            keyboard.stop()  # the shell gets the terminal's plain key codes
            try:
                await run_in_terminal(run)
            finally:
                keyboard.start()

        self.create_background_task(suspend())
