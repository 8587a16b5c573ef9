"""Enter typed before the menu opens (all keys in one read, as replayed at start-up): on pipe
input, with the real completer, no terminal and no session."""

from __future__ import annotations

from pathlib import Path

from prompt_toolkit.buffer import Buffer
from prompt_toolkit.filters import Condition

from pi_core.modes.interactive.completion import EditorCompleter, SlashEntry
from tests.interactive.test_keys import Recorder
from tests.interactive.test_keys import drive as drive_keys

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

    # synchronised on the editor sending what Enter took, not on a pause
    return drive_keys(data, actions, buffer=buffer, until=lambda done: bool(done.calls))


def test_enter_right_after_a_command_name_takes_the_command(tmp_path: Path) -> None:
    recorder, buffer = drive("/sess\r", tmp_path)
    assert recorder.calls == [("submit", "/session")]
    assert buffer.text == ""
    recorder, _ = drive("/zzqq\r", tmp_path)  # a name nothing matches is sent as typed
    assert recorder.calls == [("submit", "/zzqq")]
