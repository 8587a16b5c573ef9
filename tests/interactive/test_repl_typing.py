"""Typing while an answer streams: the echo goes first, and the answer still reaches the
scrollback whole and in order once the typing pauses."""

from __future__ import annotations

import re

from pi_core.testing import chat_stream
from tests.interactive.conftest import Screen, editor_lines


def test_typing_while_an_answer_streams_keeps_every_line_once_and_in_order(
    screen: Screen,
) -> None:
    paragraphs = [f"paragraph {n:03d}" for n in range(60)]
    answer = chat_stream("\n\n".join(paragraphs), piece=16, chunk_delay=0.01)
    answer.pause_after_chunks = 30  # half the answer is out when the typing starts
    screen.server.queue(answer)
    screen.start()
    screen.ready()
    screen.type("go")
    screen.keys("Enter")
    answer.wait_paused()
    typed = ""
    for index, letter in enumerate("typed along"):
        if index == 3:
            answer.resume()  # lines are finished while the keys keep coming
        screen.type(letter)
        typed += letter
        shown_as = typed.rstrip()  # the screen drops trailing blanks
        screen.wait_for(lambda s, shown_as=shown_as: shown_as in "".join(editor_lines(s)))
    screen.wait_for("↑10 ↓5")  # the footer's usage: the run is over
    shown = screen.wait_for("paragraph 059")
    assert re.findall(r"paragraph \d{3}", shown) == paragraphs
    assert "typed along" in editor_lines(shown)
