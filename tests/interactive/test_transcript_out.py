"""The finished lines waiting for the scrollback: taken all at once, or a batch at a time."""

from __future__ import annotations

from pi_core.modes.interactive.theme import Theme
from pi_core.modes.interactive.transcript import Transcript


def _transcript(*blocks: str) -> Transcript:
    transcript = Transcript(Theme(color=False), lambda name: None, lambda kind: None,
                            lambda what, error: None)  # fmt: skip
    for block in blocks:
        transcript.emit(block)
    return transcript


def test_everything_queued_is_taken_with_a_final_newline() -> None:
    transcript = _transcript("one\ntwo", "three")
    assert transcript.take_out() == "one\ntwo\nthree\n"
    assert transcript.out == []
    assert transcript.take_out() == ""


def test_a_limit_takes_whole_lines_up_to_it_and_keeps_the_rest_in_order() -> None:
    transcript = _transcript("aaaa\nbbbb", "cccc\ndddd")
    first = transcript.take_out(6)  # "aaaa\n" is 5 characters: the line crossing 6 comes too
    assert first == "aaaa\nbbbb\n"
    assert transcript.take_out(6) == "cccc\ndddd\n"
    assert transcript.out == []


def test_a_line_longer_than_the_limit_is_taken_whole() -> None:
    transcript = _transcript("x" * 50, "short")
    assert transcript.take_out(10) == "x" * 50 + "\n"
    assert transcript.take_out(10) == "short\n"


def test_batches_add_up_to_the_whole_text() -> None:
    lines = [f"line {n}" for n in range(100)]
    transcript = _transcript(*lines)
    pieces = []
    while transcript.out:
        pieces.append(transcript.take_out(40))
    assert "".join(pieces) == "\n".join(lines) + "\n"
    assert len(pieces) > 10
