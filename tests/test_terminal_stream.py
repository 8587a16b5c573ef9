"""`CleanStream`: text cleaned piece by piece adds up to the whole text cleaned, at O(piece)."""

from __future__ import annotations

from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pi_core import terminal_stream
from pi_core.terminal_stream import CleanStream
from pi_core.terminal_text import incomplete_tail, sanitize

# text rich in escape sequences, long ones too (a title, CSI parameters, intermediates)
hostile_text = st.lists(
    st.one_of(
        st.sampled_from(list("\x1b[]P_^X\\;:0123456789m?Jc8 !/\n\t\r\x07\x18\x1a\x00\x7fab")),
        st.characters(min_codepoint=0x80, max_codepoint=0x9F),
        st.sampled_from(["\x1b]0;", "\x1b[", "\x1b ", "\x9d8;", "\x1b\\", "title ", "12;34"]),
        st.characters(),
    ),
    max_size=60,
).map("".join)


def cleaned_in_pieces(text: str, cuts: list[int]) -> str:
    """What a CleanStream writes for `text` cut at `cuts`, then finished; after each piece it
    has written all that was sent but a sequence still cut, cleaned."""
    stream = CleanStream()
    bounds = [0, *sorted(cut % (len(text) + 1) for cut in cuts), len(text)]
    written = ""
    for start, end in pairwise(bounds):
        written += stream.feed(text[start:end])
        sent = text[:end]
        assert written == sanitize(sent[: incomplete_tail(sent)]), (text, start, end)
    return written + stream.finish()


@given(hostile_text, st.lists(st.integers(min_value=0, max_value=1000), max_size=20))
@settings(max_examples=400, deadline=None)
def test_pieces_cleaned_add_up_to_the_whole_cleaned(text: str, cuts: list[int]) -> None:
    assert cleaned_in_pieces(text, cuts) == sanitize(text)


@given(hostile_text)
@settings(max_examples=200, deadline=None)
def test_character_by_character_too(text: str) -> None:
    assert cleaned_in_pieces(text, list(range(len(text)))) == sanitize(text)


# pieces made of whole tokens: a sequence's start, what goes on with it, what ends it
TOKENS = ["\x1b]0;", "\x1b[", "\x1b", "\x1b ", "\x1b(", "\x9b", "\x9d", "\x9f", "12", ";",
          " ", "!", "/", "m", "@", "J", "0", "\x07", "\x1b\\", "\x9c", "\n", "ab", "a\nb", "8;",
          "\x18", "\r"]  # fmt: skip


@given(st.lists(st.tuples(st.sampled_from(TOKENS), st.booleans()), max_size=30))
@settings(max_examples=400, deadline=None)
def test_pieces_of_whole_tokens(tokens: list[tuple[str, bool]]) -> None:
    text, cuts = "", []
    for token, cut_after in tokens:
        text += token
        if cut_after:
            cuts.append(len(text))
    assert cleaned_in_pieces(text, cuts) == sanitize(text)


@pytest.mark.parametrize(
    "pieces",
    [
        ["x\x1b]0;", "title", "a\nb"],  # a newline ends an unterminated title
        ["x\x1b]0;", "title", "\x1b[1mb"],  # so does the next sequence
        ["\x1b[", " ", "12"],  # a parameter after an intermediate ends a CSI
        # a final byte ends a sequence, and what follows is text, however it looks
        ["\x1b[1;", "2", "@", "12"],
        ["\x9b", "1", ";", "m", "1"],
        ["\x1b", " ", "!", "0", " "],  # a short escape's intermediates, then its final
        ["\x1b(", "0", "0"],
        ["\x1b", "[", "1", "J", "1"],
    ],
)
def test_the_text_after_a_sequence_is_written_with_the_piece_that_ends_it(
    pieces: list[str],
) -> None:
    cuts = [sum(map(len, pieces[:n])) for n in range(1, len(pieces))]
    text = "".join(pieces)
    assert cleaned_in_pieces(text, cuts) == sanitize(text)


def test_a_cut_sequence_waits_and_the_text_before_it_does_not() -> None:
    stream = CleanStream()
    assert stream.feed("before \x1b]0;PWN") == "before "
    assert stream.feed("ED-TITLE") == ""
    assert stream.feed("\x07 after") == "␛ after"
    assert stream.feed("end \x1b[3") == "end "
    assert stream.finish() == "␛"  # a sequence still cut at the end is removed whole


def test_a_held_sequence_is_not_scanned_again_for_pieces_that_go_on_with_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    scanned: list[int] = []
    real = terminal_stream.incomplete_tail

    def counting(text: str) -> int:
        scanned.append(len(text))
        return real(text)

    monkeypatch.setattr(terminal_stream, "incomplete_tail", counting)
    stream = CleanStream()
    pieces = ["start \x1b]0;", *["x" * 64] * 500, "\x07 done", " \x1b[1", *[";2"] * 500, "m end"]
    written = "".join(stream.feed(piece) for piece in pieces) + stream.finish()
    assert written == sanitize("".join(pieces))
    # each held sequence is scanned when it begins and once more when it ends, not per piece
    assert len(scanned) == 4
    assert sum(scanned) <= 2 * sum(map(len, pieces))
