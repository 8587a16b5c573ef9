"""A streaming answer past 16 KiB keeps showing on screen as it arrives (the builder joins a long
block's text only now and then; the REPL brings it up to date each frame)."""

from __future__ import annotations

from pi_core.testing import chat_stream
from tests.interactive.conftest import Screen

# 1,000 paragraphs of exactly 20 characters: one paragraph per streamed delta
ANSWER = "".join(f"para {n:05d} xxxxxxx\n\n" for n in range(1000))
SENT = 960  # paragraphs sent before the stream holds: 19,200 characters, past 16 KiB


def test_the_answer_on_screen_keeps_up_past_16_kib(screen: Screen) -> None:
    held = chat_stream(ANSWER, piece=20)
    held.pause_after_chunks = 1 + SENT  # the role chunk, then one paragraph per chunk
    screen.server.queue(held)
    screen.start()
    screen.ready()
    screen.type("write a lot")
    screen.keys("Enter")
    held.wait_paused()
    # the last paragraph sent may wait for the next to be rendered; the one before it may not
    screen.wait_for(f"para {SENT - 2:05d}")
    held.resume()
    screen.wait_for("para 00999")
