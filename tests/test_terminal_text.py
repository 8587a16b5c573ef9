"""`sanitize`: what it keeps, removes and shows; properties over random text."""

from __future__ import annotations

import io
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pi_core.terminal_text import MARK, for_stream, incomplete_tail, sanitize

CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
SGR = re.compile(r"\x1b\[[0-9;:]*m")

# text rich in the characters that make up escape sequences, plus anything at all
hostile_text = st.text(
    alphabet=st.one_of(
        st.sampled_from(list("\x1b[]P_^X\\;:0123456789m?Jc8 \n\t\r\x07\x18\x1a\x00\x7fab")),
        st.characters(min_codepoint=0x80, max_codepoint=0x9F),
        st.characters(),
    ),
    max_size=80,
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("a\x1b[2Jb", "ab"),  # CSI removed
        ("a\x1b[1;31mred\x1b[0m", "ared"),
        ("\x1b]0;title\x07after", MARK + "after"),  # OSC ended by BEL
        ("\x1b]52;c;SGk=\x1b\\after", MARK + "after"),  # OSC ended by ST
        ("\x1b]0;open\nnext line", MARK + "\nnext line"),  # unterminated: ends with its line
        ("\x1b]0;open\x1b[31mred", MARK + "red"),  # or at the next escape
        ("\x9b2Jeight", "eight"),  # 8-bit CSI
        ("\x9d0;t\x9cok", MARK + "ok"),  # 8-bit OSC and ST
        ("\x1bPqdata\x1b\\ok", MARK + "ok"),  # DCS
        ("\x1b_apc\x1b\\\x1b^pm\x1b\\\x1bXsos\x1b\\ok", MARK * 3 + "ok"),  # APC, PM, SOS
        ("\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\", "link"),  # hyperlink markers, text kept
        ("\x1bcreset \x1b(Bset", "reset set"),  # short escapes
        ("stray\x1b", "stray" + MARK),
        ("half\x1b[12", "half" + MARK),
        ("c1\x85", "c1" + MARK),
        ("bell\x07nul\x00del\x7f", "bell\u2407nul\u2400del\u2421"),  # control pictures
        ("crlf\r\nline\rover", "crlf\nlineover"),
        ("tab\tand\nnewline", "tab\tand\nnewline"),
        ("plain ✓ text", "plain ✓ text"),
    ],
)
def test_sanitize_examples(text: str, expected: str) -> None:
    assert sanitize(text) == expected


def test_keep_colors_keeps_only_sgr() -> None:
    text = "\x1b[1;38;2;1;2;3mbold\x1b[0m \x1b[2J\x1b]0;t\x07\x01\x1b[?25l"
    assert sanitize(text, keep_colors=True) == "\x1b[1;38;2;1;2;3mbold\x1b[0m " + MARK + "\u2401"


@given(hostile_text)
@settings(max_examples=500)
def test_no_control_character_survives(text: str) -> None:
    cleaned = sanitize(text)
    assert CONTROL.search(cleaned) is None
    assert sanitize(cleaned) == cleaned  # idempotent


@given(hostile_text)
@settings(max_examples=500)
def test_with_colours_only_sgr_survives(text: str) -> None:
    assert CONTROL.search(SGR.sub("", sanitize(text, keep_colors=True))) is None


@given(hostile_text, st.text(alphabet=st.characters(blacklist_categories=("Cc",)), max_size=20))
def test_an_unfinished_sequence_never_swallows_the_next_line(head: str, line: str) -> None:
    assert sanitize(head + "\n" + line).endswith("\n" + line)


@given(hostile_text, st.lists(st.integers(min_value=0, max_value=80), max_size=6))
@settings(max_examples=500)
def test_streamed_pieces_clean_like_the_whole(text: str, cuts: list[int]) -> None:
    shown, done = "", 0
    for cut in sorted(cuts):
        ready = incomplete_tail(text[:cut])
        if ready > done:
            shown += sanitize(text[done:ready])
            done = ready
    shown += sanitize(text[done:])
    assert shown == sanitize(text)


def test_for_stream_cleans_a_terminal_only() -> None:
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    assert for_stream("a\x1b[2Jb", Tty()) == "ab"
    assert for_stream("a\x1b[2Jb", io.StringIO()) == "a\x1b[2Jb"  # a pipe or file: exact
