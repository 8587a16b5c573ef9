"""Without a terminal: keys in kitty's CSI u and xterm's modifyOtherKeys forms reach the same
bindings as their legacy codes; trailing padding leaves the scrollback's lines while visible
spaces stay; a redraw of the conversation that fails is reported."""

from __future__ import annotations

import pytest

import pi_core.modes.interactive.modified_keys  # noqa: F401  (installs the sequences)
from pi_core.modes.interactive.line_padding import trim_padding
from tests.interactive.test_keys import drive

pytestmark = pytest.mark.slow


@pytest.mark.parametrize(
    ("sequence", "expected"),
    [
        ("\x1b[99;5u", ["exit"]),  # Ctrl+C twice: the second press exits
        ("\x1b[27;5;99~", ["exit"]),
    ],
)
def test_ctrl_c_in_either_form_clears_then_exits(sequence: str, expected: list[str]) -> None:
    recorder, _ = drive("text" + sequence + sequence)
    assert recorder.names() == expected


@pytest.mark.parametrize("sequence", ["\x1b[13;3u", "\x1b[27;3;13~"])
def test_alt_enter_in_either_form_queues_a_follow_up(sequence: str) -> None:
    recorder, _ = drive("later" + sequence)
    assert recorder.calls[-1] == ("follow_up", "later")


def test_kitty_escape_and_alt_b_reach_their_bindings() -> None:
    recorder, buffer = drive("one two\x1b[98;3uX")  # Alt+B: a word back, then type X
    assert buffer.text == "one Xtwo"
    recorder, _ = drive("\x1b[27u")  # Esc on an empty editor
    assert recorder.names() == ["interrupt", "escape_on_empty"]


def test_shift_tab_and_ctrl_d_in_csi_u_form() -> None:
    recorder, _ = drive("\x1b[9;2u")
    assert recorder.names() == ["cycle_thinking"]
    recorder, _ = drive("\x1b[100;5u")
    assert recorder.names() == ["exit"]


def test_a_shifted_character_in_xterm_form_is_typed() -> None:
    _, buffer = drive("a\x1b[27;2;65~\x1b[27;2;33~b")
    assert buffer.text == "aA!b"


def test_the_answer_to_the_kitty_query_types_nothing() -> None:
    _, buffer = drive("a\x1b[?1ub")
    assert buffer.text == "ab"


def test_trailing_padding_goes_and_coloured_padding_stays() -> None:
    padded = "Hello \x1b[1mworld\x1b[0m.      \n\x1b[36m one \x1b[0m   "
    assert trim_padding(padded) == "Hello \x1b[1mworld\x1b[0m.\n\x1b[36m one\x1b[0m"
    background = "\x1b[48;2;1;2;3m text      \x1b[0m"
    assert trim_padding(background) == background
    mixed = "abc   \x1b[48;5;3m  \x1b[0m   "
    assert trim_padding(mixed) == "abc   \x1b[48;5;3m  \x1b[0m"


def test_a_redraw_that_fails_is_reported_and_leaves_the_screen_alone() -> None:
    import asyncio
    from types import SimpleNamespace

    from pi_core.modes.interactive.relayout import relayout
    from pi_core.modes.interactive.theme import Theme
    from pi_core.modes.interactive.transcript import Transcript

    def broken() -> bool:
        raise RuntimeError("settings unreadable")

    printed: list[str] = []

    async def print_above(text: str) -> None:
        printed.append(text)

    transcript = Transcript(Theme(color=False), lambda name: None, lambda kind: None,
                            lambda what, error: None)  # fmt: skip
    app = SimpleNamespace(transcript=transcript, print_above=print_above, theme=Theme(color=False),
                          session=SimpleNamespace(settings=SimpleNamespace(
                              get_quiet_startup=broken)))  # fmt: skip
    asyncio.run(relayout(app, 80))  # type: ignore[arg-type]
    assert printed == []
    assert "could not be drawn again: settings unreadable" in transcript.take_out()


def test_a_colourless_redraw_still_clears_and_writes_only_that_escape() -> None:
    """pi clears its chat the same way with or without colour (after `/new`, `/resume`,
    `/import`); the clear is the only escape sequence written, none from the messages."""
    import asyncio
    from types import SimpleNamespace

    from pi_core.messages.llm import UserMessage
    from pi_core.modes.interactive.relayout import CLEAR_ALL, relayout
    from pi_core.modes.interactive.theme import Theme
    from pi_core.modes.interactive.transcript import Transcript

    printed: list[str] = []

    async def print_above(text: str) -> None:
        printed.append(text)

    theme = Theme(color=False)
    transcript = Transcript(theme, lambda name: None, lambda kind: None, lambda what, error: None)
    nothing = SimpleNamespace(errors=[], diagnostics=[], registry=SimpleNamespace(diagnostics=[]))
    hostile = UserMessage(content="hi \x1b]0;owned\x07 \x1b[2J there")
    session = SimpleNamespace(
        settings=SimpleNamespace(get_quiet_startup=lambda: True), plugins=nothing,
        resources=SimpleNamespace(diagnostics=[]), model=object(),
        model_fallback_message=None, messages=[hostile],
    )  # fmt: skip
    app = SimpleNamespace(transcript=transcript, print_above=print_above, theme=theme,
                          session=session, ui=SimpleNamespace(header_factory=None))  # fmt: skip
    asyncio.run(relayout(app, 80))  # type: ignore[arg-type]
    assert len(printed) == 1 and printed[0].startswith(CLEAR_ALL)
    rest = printed[0][len(CLEAR_ALL) :]
    assert "there" in rest and "\x1b" not in rest and "\x07" not in rest
