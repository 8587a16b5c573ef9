"""The whole chat printed again: after the width changed, after Ctrl+O, or when the live region
shrank with `terminal.clearOnShrink` on.

As pi redraws its chat: screen and scrollback are cleared (`ESC[2J ESC[H ESC[3J`) and every
message is rendered again at the current width, as one synchronized frame. An answer still
streaming starts over from its first line at the new width (what of it was printed at the old
width is gone with the scrollback), so nothing is shown twice.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pi_core.modes.interactive.line_padding import trim_padding
from pi_core.modes.interactive.rendering import render_ansi

if TYPE_CHECKING:
    from pi_core.modes.interactive.host import RelayoutHost

CLEAR_ALL = "\x1b[2J\x1b[H\x1b[3J"


def chat_text(app: RelayoutHost, width: int) -> str:
    """The header and every message of the session, rendered at `width`."""
    from pi_core.modes.interactive.header import header

    current = app.transcript
    replay = current.fresh()
    quiet = bool(app.session.settings.get_quiet_startup())
    block = header(app.session, quiet, replay.expanded, app.ui.header_factory)
    if block is not None:
        replay.emit(render_ansi(block, width, color=app.theme.color))
    for message in app.session.messages:
        replay.message(message, width)
    current.recent_views = replay.recent_views
    return "\n".join(replay.out)


async def relayout(app: RelayoutHost, width: int) -> None:
    """Clear the screen and scrollback and print the chat again at `width` (in raw mode, as
    one synchronized frame with the redraw of the live region)."""
    try:
        text = trim_padding(chat_text(app, width))
    except Exception as error:  # the frame timer calls this: it must not end with an error
        app.transcript.status(f"Error: the conversation could not be drawn again: {error}", "red")
        return
    app.transcript.restart_stream()
    # lines still queued belong to a message (printed again above) or are a status line (not
    # printed again, as the older ones are not): kept, they would show a message twice
    app.transcript.take_out()
    # cleared with colour off too, as pi does: colour changes how text looks, not the redraw
    # (the messages are rendered and sanitized above; the clear is the only escape added)
    await app.print_above(CLEAR_ALL + text + "\n")


class LayoutWatch:
    """Decides when the chat must be laid out again: the terminal's width changed since the
    last layout, Ctrl+O asked for it, or (with clearOnShrink) the live region got shorter than
    it was since lines were last printed above it, leaving blank rows below it."""

    def __init__(self) -> None:
        self.width: int | None = None
        self.requested = False
        self._tallest = 0

    def request(self) -> None:
        """Print the chat again on the next frame."""
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
        self._tallest = 0

    def printed(self) -> None:
        """Lines went into the scrollback: the live region starts below them, as tall as it is."""
        self._tallest = 0

    def rendered(self, rows: int) -> None:
        """The live region was drawn `rows` tall (watched with clearOnShrink on)."""
        if rows < self._tallest:
            self.request()
        self._tallest = max(self._tallest, rows)
