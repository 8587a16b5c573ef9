"""Key handling on prompt_toolkit's pipe input: no terminal, no session, just the bindings."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest
from prompt_toolkit.application import Application
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.filters import Condition
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.key_binding import merge_key_bindings
from prompt_toolkit.layout import Layout, Window
from prompt_toolkit.layout.controls import BufferControl
from prompt_toolkit.output import DummyOutput

from pi_core.modes.interactive.default_keys import emacs_key_bindings
from pi_core.modes.interactive.editor import PasteStore
from pi_core.modes.interactive.keys import build_key_bindings, to_prompt_toolkit_keys

pytestmark = pytest.mark.slow


class Recorder:
    """Records what the keys asked for."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, Any]] = []
        self.pastes = PasteStore()
        self.busy = False

    def submit(self, text: str, follow_up: bool) -> None:
        self.calls.append(("follow_up" if follow_up else "submit", text))

    def interrupt(self) -> bool:
        self.calls.append(("interrupt", None))
        return self.busy

    def exit(self) -> None:
        self.calls.append(("exit", None))

    def cycle_thinking(self) -> None:
        self.calls.append(("cycle_thinking", None))

    def cycle_model(self, backward: bool) -> None:
        self.calls.append(("cycle_model", backward))

    def toggle_thinking(self) -> None:
        self.calls.append(("toggle_thinking", None))

    def toggle_expanded(self) -> None:
        self.calls.append(("toggle_expanded", None))

    def dequeue(self) -> None:
        self.calls.append(("dequeue", None))

    def external_editor(self) -> None:
        self.calls.append(("external_editor", None))

    def paste(self, text: str) -> str:
        return self.pastes.insert_text(text)

    def expand_text(self, text: str) -> str:
        return self.pastes.expand(text)

    def delete_marker(self, text: str, cursor: int) -> tuple[int, int] | None:
        return self.pastes.marker_before(text, cursor)

    def notify(self, message: str) -> None:
        self.calls.append(("notify", message))

    def escape_on_empty(self) -> None:
        self.calls.append(("escape_on_empty", None))

    def names(self) -> list[str]:
        return [name for name, _ in self.calls if name != "notify"]


def drive(
    data: str,
    recorder: Recorder | None = None,
    shortcuts: dict[str, Callable[[], Any]] | None = None,
    clock: Callable[[], float] | None = None,
    buffer: Buffer | None = None,
    until: Callable[[Recorder], bool] | None = None,
) -> tuple[Recorder, Buffer]:
    """Feed `data` to an app holding only the editor (`buffer`, a plain one by default) and its
    keys; return what happened. With `until`, the app runs until it holds (bounded)."""
    actions = recorder or Recorder()
    editor = buffer or Buffer(multiline=True)

    async def run() -> None:
        with create_pipe_input() as pipe:
            keys = build_key_bindings(actions, dialog_open=Condition(lambda: False),
                                      shortcuts=shortcuts, clock=clock)  # fmt: skip
            app: Application[None] = Application(
                layout=Layout(Window(BufferControl(editor))),
                key_bindings=merge_key_bindings([emacs_key_bindings(), keys]),
                input=pipe,
                output=DummyOutput(),
            )
            app.ttimeoutlen = 0.01
            app.timeoutlen = 0.01
            pipe.send_text(data)
            task = asyncio.ensure_future(app.run_async())
            for _ in range(400):
                await asyncio.sleep(0.005)
                if (until is not None and until(actions)) or (until is None and pipe.closed):
                    break
            if until is None:
                await asyncio.sleep(0.1)
            app.exit()
            await task

    asyncio.run(run())
    return actions, editor


def test_enter_sends_the_text_and_clears_the_editor() -> None:
    recorder, buffer = drive("hello world\r")
    assert recorder.calls == [("submit", "hello world")]
    assert buffer.text == ""


def test_enter_on_an_empty_editor_sends_nothing() -> None:
    recorder, _ = drive("   \r")
    assert recorder.names() == []


def test_ctrl_j_and_backslash_enter_insert_new_lines() -> None:
    recorder, buffer = drive("one\ntwo\\\rthree")
    assert recorder.names() == []
    assert buffer.text == "one\ntwo\nthree"


@pytest.mark.parametrize("sequence", ["\x1b[27;2;13~", "\x1b[13;2u"])
def test_shift_enter_inserts_a_new_line(sequence: str) -> None:
    recorder, buffer = drive(f"a{sequence}b")
    assert recorder.names() == []
    assert buffer.text == "a\nb"


def test_alt_enter_queues_a_follow_up() -> None:
    recorder, _ = drive("later\x1b\r")
    assert recorder.calls == [("follow_up", "later")]


def test_a_large_paste_becomes_a_marker_and_is_expanded_when_sent() -> None:
    pasted = "\n".join(f"line {n}" for n in range(30))
    recorder, buffer = drive(f"see \x1b[200~{pasted}\x1b[201~")
    assert buffer.text == "see [paste #1 +30 lines]"
    assert recorder.expand_text(buffer.text) == f"see {pasted}"
    recorder, _ = drive(f"see \x1b[200~{pasted}\x1b[201~\r")
    assert recorder.calls == [("submit", f"see {pasted}")]


def test_backspace_deletes_a_paste_marker_as_one_unit() -> None:
    pasted = "x" * 2000
    _, buffer = drive(f"a \x1b[200~{pasted}\x1b[201~\x7f")
    assert buffer.text == "a "


def test_a_small_paste_is_inserted_as_text_with_tabs_and_crlf_normalised() -> None:
    _, buffer = drive("\x1b[200~a\tb\r\nc\x1b[201~")
    assert buffer.text == "a    b\nc"


def test_ctrl_c_clears_and_a_second_press_within_half_a_second_exits() -> None:
    ticks = iter([0.0, 0.2])
    recorder, buffer = drive("draft\x03", clock=lambda: 0.0)
    assert buffer.text == "" and "exit" not in recorder.names()
    recorder, _ = drive("draft\x03\x03", clock=lambda: next(ticks))
    assert recorder.names() == ["exit"]


def test_ctrl_c_twice_far_apart_does_not_exit() -> None:
    ticks = iter([0.0, 5.0])
    recorder, _ = drive("\x03\x03", clock=lambda: next(ticks))
    assert "exit" not in recorder.names()


def test_ctrl_d_exits_only_on_an_empty_editor() -> None:
    recorder, buffer = drive("ab\x01\x04")  # Ctrl+A then Ctrl+D deletes forward
    assert buffer.text == "b" and recorder.names() == []
    recorder, _ = drive("\x04")
    assert recorder.names() == ["exit"]


def test_escape_interrupts_and_clears_bash_mode_when_idle() -> None:
    recorder, buffer = drive("!ls\x1b")
    assert recorder.names() == ["interrupt"]
    assert buffer.text == ""
    busy = Recorder()
    busy.busy = True
    recorder, buffer = drive("!ls\x1b", recorder=busy)
    assert buffer.text == "!ls"  # an abort happened instead


def test_app_keys_reach_their_actions() -> None:
    recorder, _ = drive("\x1b[Z\x10\x14\x0f\x1b[1;3A\x07")
    assert recorder.names() == [
        "cycle_thinking", "cycle_model", "toggle_thinking", "toggle_expanded", "dequeue",
        "external_editor",
    ]  # fmt: skip


def test_undo_takes_back_a_word_at_a_time() -> None:
    _, buffer = drive("abc def\x1f")
    assert buffer.text == "abc "
    _, buffer = drive("abc def\x1f\x1f")
    assert buffer.text == "abc"
    _, buffer = drive("abc def\x1f\x1f\x1f")
    assert buffer.text == ""


def test_undo_after_moving_the_cursor_starts_a_new_step() -> None:
    _, buffer = drive("abc\x01xy\x1f")  # Ctrl+A, then type at the start
    assert buffer.text == "abc"


def test_shift_ctrl_p_cycles_models_backwards() -> None:
    for sequence in ("\x1b[112;6u", "\x1b[27;6;80~"):
        recorder, buffer = drive(sequence)
        assert recorder.calls == [("cycle_model", True)]
        assert buffer.text == ""


def test_a_plugin_shortcut_wins_over_the_built_in_key() -> None:
    fired: list[str] = []
    recorder, _ = drive("\x10", shortcuts={"ctrl+p": lambda: fired.append("plugin")})
    assert fired == ["plugin"]
    assert "cycle_model" not in recorder.names()


@pytest.mark.parametrize(
    ("spec", "keys"),
    [("ctrl+x", ("c-x",)), ("alt+enter", ("escape", "c-m")), ("shift+tab", ("s-tab",)),
     ("f5", ("f5",)), ("ctrl+shift+p", ("f24",)), ("shift+ctrl+p", ("f24",))],
)  # fmt: skip
def test_pi_key_names_map_to_prompt_toolkit(spec: str, keys: tuple[str, ...]) -> None:
    assert to_prompt_toolkit_keys(spec) == keys


def test_an_unknown_modifier_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown modifier"):
        to_prompt_toolkit_keys("hyper+x")
