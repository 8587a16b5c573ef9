"""The whole chat printed again: after the width changed, after Ctrl+O, or when the live region
shrank with `terminal.clearOnShrink` on.

As pi redraws its chat: screen and scrollback are cleared (`ESC[2J ESC[H ESC[3J`) and every
message is rendered again at the current width, as one synchronized frame. An answer still
streaming starts over from its first line at the new width (what of it was printed at the old
width is gone with the scrollback), so nothing is shown twice.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from prompt_toolkit.application import run_in_terminal

from pi_core.modes.interactive.line_padding import trim_padding
from pi_core.modes.interactive.rendering import render_ansi
from pi_core.modes.interactive.terminal_output import BEGIN_SYNC, END_SYNC
from pi_core.modes.interactive.transcript import Transcript

if TYPE_CHECKING:
    from pi_core.modes.interactive.app import InteractiveApp

CLEAR_ALL = "\x1b[2J\x1b[H\x1b[3J"


def chat_text(app: InteractiveApp, width: int) -> str:
    """The header and every message of the session, rendered at `width`."""
    from pi_core.modes.interactive.header import header

    current = app.transcript
    replay = Transcript(current.theme, current.tools, current.renderers, current.report)
    replay.expanded = current.expanded
    replay.hide_thinking = current.hide_thinking
    quiet = bool(app.session.settings.get_quiet_startup())
    block = header(app.session, quiet, replay.expanded, app.ui.header_factory)
    if block is not None:
        replay.emit(render_ansi(block, width, color=app.theme.color))
    for message in app.session.messages:
        replay.message(message, width)
    current.recent_views = replay.recent_views
    return "\n".join(replay.out)


async def relayout(app: InteractiveApp, width: int) -> None:
    """Clear the screen and scrollback and print the chat again at `width`."""
    text = chat_text(app, width)
    app.transcript.restart_stream()
    pending = app.transcript.take_out()  # queued lines that are not part of a message
    text = trim_padding("\n".join(part for part in (text, pending.rstrip("\n")) if part))
    clear = CLEAR_ALL if app.theme.color else ""
    frame = BEGIN_SYNC + clear + text + "\n" + END_SYNC if app.theme.color else text + "\n"
    await run_in_terminal(functools.partial(app.write, frame))


class LayoutWatch:
    """Decides when the chat must be laid out again: the terminal's width changed since the
    last layout, or (with clearOnShrink) the live region left blank rows below itself."""

    def __init__(self) -> None:
        self.width: int | None = None
        self.requested = False

    def request(self) -> None:
        """Print the chat again on the next frame (Ctrl+O changed how it looks)."""
        self.requested = True

    def due(self, width: int) -> bool:
        """Whether the chat should be printed again now, at `width`."""
        if self.width is None:
            self.width = width
        return self.requested or width != self.width

    def done(self, width: int) -> None:
        """The chat was just printed at `width`."""
        self.width = width
        self.requested = False

    def rendered(self, drawn_rows: int, needed_rows: int) -> None:
        """After a redraw (clearOnShrink on): prompt_toolkit keeps the rows it drew once, so
        more rows drawn than the layout needs are blank ones left by a shrink."""
        if needed_rows < drawn_rows:
            self.request()
