"""Finished lines printed into the scrollback above the live region, in raw mode."""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from typing import Any

from prompt_toolkit.application import Application, run_in_terminal

from pi_core.modes.interactive.line_padding import trim_padding
from pi_core.modes.interactive.rendering import render_ansi
from pi_core.modes.interactive.terminal_output import one_frame
from pi_core.modes.interactive.theme import Theme


async def print_above(app: Application[Any], write: Callable[[str], None], text: str) -> None:
    """Print `text` above the live region with `write`, then redraw the region.

    prompt_toolkit's `run_in_terminal` does this in cooked mode: for that moment the
    terminal echoed a key typed during a stream itself, a stray character in the
    scrollback (and an echo that was not the editor's). The REPL stays in raw mode here;
    while another `run_in_terminal` runs (an external editor), it queues behind it.
    """

    def terminal_busy() -> bool:
        running = app._running_in_terminal_f
        return (
            not app.is_running
            or app._running_in_terminal
            or not (running is None or running.done())
        )

    if not terminal_busy() and app.output.responds_to_cpr:
        await app.renderer.wait_for_cpr_responses()  # an older reply would give a stale row
    if terminal_busy():
        await run_in_terminal(functools.partial(write, text))  # redraws after
        return
    with one_frame(app.output):
        app.renderer.erase()  # moves to the live region's top and clears it (queued in order)
        write(text)
        app._request_absolute_cursor_position()  # as run_in_terminal: the rows left below
        app._redraw()


def write_stdout(text: str) -> None:
    """Write to the terminal directly (before the app runs, or after it ended)."""
    sys.stdout.write(text)
    sys.stdout.flush()


def print_block(renderable: Any, theme: Theme, width: int) -> None:
    """Print a rich renderable before the app starts (the header, a loaded session)."""
    write_stdout(trim_padding(render_ansi(renderable, width, color=theme.color)) + "\n")
