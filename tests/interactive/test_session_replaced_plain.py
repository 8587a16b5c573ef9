"""With colour off, `/new` clears the screen and the scrollback as it does with colour: pi
0.73.1's colour setting changes colours only, never how its chat is redrawn."""

from __future__ import annotations

from pathlib import Path

from pi_core.testing import chat_stream
from tests.interactive.conftest import Screen, stripped_lines

CLEAR_ALL = b"\x1b[2J\x1b[H\x1b[3J"


def test_new_with_no_color_clears_screen_and_scrollback(screen: Screen, tmp_path: Path) -> None:
    raw = tmp_path / "raw.bin"
    screen.start(env={"NO_COLOR": "1"}, raw=raw)
    screen.ready()
    screen.server.queue(chat_stream("OLD-ANSWER"))
    screen.type("old question")
    screen.keys("Enter")
    screen.wait_for(lambda s: "OLD-ANSWER" in stripped_lines(s))
    before = len(raw.read_bytes())
    screen.type("/new")
    screen.keys("Enter")
    text = screen.wait_for("New session started")
    assert "OLD-ANSWER" not in text and "old question" not in text
    assert CLEAR_ALL in screen.wait_for_output(raw, CLEAR_ALL)[before:]
