"""Enter typed before the menu opens (all keys in one read, as replayed at start-up): on pipe
input, with the real completer, no terminal and no session."""

from __future__ import annotations

import asyncio
from pathlib import Path

from prompt_toolkit.application import Application
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.filters import Condition
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.key_binding import merge_key_bindings
from prompt_toolkit.layout import Layout, Window
from prompt_toolkit.layout.controls import BufferControl
from prompt_toolkit.output import DummyOutput

from pi_core.modes.interactive.completion import EditorCompleter, SlashEntry
from pi_core.modes.interactive.default_keys import emacs_key_bindings
from pi_core.modes.interactive.keys import build_key_bindings
from tests.interactive.test_keys import Recorder

ENTRIES = [SlashEntry("session", "Show session info", "built-in"),
           SlashEntry("settings", "Open the settings", "built-in")]  # fmt: skip


def drive(data: str, cwd: Path) -> tuple[Recorder, Buffer]:
    """Send `data` in one write to an editor whose menu opens while typing `/…`."""
    actions = Recorder()
    buffer = Buffer(
        multiline=True,
        completer=EditorCompleter(lambda: ENTRIES, cwd),
        complete_while_typing=Condition(lambda: buffer.text.startswith("/")),
    )

    async def run() -> None:
        with create_pipe_input() as pipe:
            keys = build_key_bindings(actions, dialog_open=Condition(lambda: False))
            app: Application[None] = Application(
                layout=Layout(Window(BufferControl(buffer))),
                key_bindings=merge_key_bindings([emacs_key_bindings(), keys]),
                input=pipe,
                output=DummyOutput(),
            )
            app.ttimeoutlen = 0.01
            app.timeoutlen = 0.01
            pipe.send_text(data)
            task = asyncio.ensure_future(app.run_async())
            await asyncio.sleep(0.3)
            app.exit()
            await task

    asyncio.run(run())
    return actions, buffer


def test_enter_right_after_a_command_name_takes_the_command(tmp_path: Path) -> None:
    recorder, buffer = drive("/sess\r", tmp_path)
    assert recorder.calls == [("submit", "/session")]
    assert buffer.text == ""
    recorder, _ = drive("/zzqq\r", tmp_path)  # a name nothing matches is sent as typed
    assert recorder.calls == [("submit", "/zzqq")]
