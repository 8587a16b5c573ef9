"""The editor drawn before the agent loads, on prompt_toolkit's pipe input: it types text, holds
every other key in order for the REPL, and still leaves on Ctrl+C twice or Ctrl+D."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator

from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.input.typeahead import get_typeahead
from prompt_toolkit.keys import Keys
from prompt_toolkit.output import DummyOutput

from pi_core.modes.interactive.early_editor import EarlyEditor


def type_into_early_editor(
    data: str, until: Callable[[EarlyEditor], bool], clock: Iterator[float] | None = None
) -> tuple[EarlyEditor, str, list[object]]:
    """Feed `data`, step the loop until `until` holds, hand over; return the editor, its text
    and the keys handed to the next app."""
    ticks = clock or iter(float(n) for n in range(100))

    async def run() -> tuple[EarlyEditor, str, list[object]]:
        with create_pipe_input() as pipe:
            editor = EarlyEditor(
                "/tmp", input=pipe, output=DummyOutput(), clock=lambda: next(ticks)
            )
            editor.start()
            pipe.send_text(data)
            for _ in range(10_000):  # loop iterations, not time: the pipe is read on this loop
                if until(editor):
                    break
                await asyncio.sleep(0)
            assert until(editor), (editor.buffer.text, editor.held, editor.quit)
            document = await editor.hand_over()
            handed: list[object] = [press.key for press in get_typeahead(pipe)]
            return editor, document.text, handed

    return asyncio.run(run())


def test_printable_keys_and_backspace_edit_the_text_at_once() -> None:
    editor, text, handed = type_into_early_editor(
        "helo\x7flo wörld", lambda e: e.buffer.text == "hello wörld"
    )
    assert text == "hello wörld"
    assert handed == [] and not editor.quit


def test_any_other_key_and_every_key_after_it_are_handed_over_in_order() -> None:
    editor, text, handed = type_into_early_editor(
        "ab\x1b[Dc\rd", lambda e: len(e.held) == 4
    )  # Left, "c", Enter, "d"
    assert text == "ab"
    assert handed == [Keys.Left, "c", Keys.ControlM, "d"]
    assert not editor.quit


def test_a_paste_is_held_for_the_repl_which_turns_large_ones_into_markers() -> None:
    _, text, handed = type_into_early_editor(
        "x\x1b[200~pasted\x1b[201~y", lambda e: len(e.held) == 2
    )
    assert text == "x"
    assert handed == [Keys.BracketedPaste, "y"]


def test_ctrl_c_clears_the_text_and_twice_in_half_a_second_leaves() -> None:
    editor, text, _ = type_into_early_editor("draft\x03z", lambda e: e.buffer.text == "z",
                                             iter([0.0]))  # fmt: skip
    assert text == "z" and not editor.quit
    editor, _, _ = type_into_early_editor("draft\x03\x03", lambda e: e.quit, iter([0.0, 0.2]))
    assert editor.quit


def test_ctrl_c_twice_far_apart_does_not_leave() -> None:
    editor, _, _ = type_into_early_editor("\x03x\x03y", lambda e: e.buffer.text == "y",
                                          iter([0.0, 5.0]))  # fmt: skip
    assert not editor.quit


def test_ctrl_d_leaves_only_on_an_empty_editor() -> None:
    editor, _, _ = type_into_early_editor("\x04", lambda e: e.quit)
    assert editor.quit
    editor, text, handed = type_into_early_editor("ab\x04", lambda e: len(e.held) == 1)
    assert not editor.quit and text == "ab" and handed == [Keys.ControlD]


def test_ctrl_c_twice_leaves_even_while_keys_are_held() -> None:
    editor, _, _ = type_into_early_editor("a\r\x03\x03", lambda e: e.quit, iter([0.0, 0.1]))
    assert editor.quit
