"""Text with escape sequences, from every source, never reaches the terminal as escape codes.

Each test drives the real `pi` in tmux, records the raw bytes written to the pane
(`tmux pipe-pane`) and checks that no payload of a hostile sequence was written, neither as a
sequence nor as visible text, while pi's own colours still are.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from pi_core.testing import FakeLLMServer, chat_models_json, chat_stream
from tests.interactive.conftest import Screen

ANSWER = (
    "**bold start** wipe\x1b[2J\x1b[Hnow\n\n"
    "title\x1b]0;PWNED-TITLE\x07 set\n\n"
    "clip\x1b]52;c;UFdORUQtQ0xJUA==\x1b\\ board\n\n"
    "eight\x9b2J bit \x9d0;PWNED-C1\x9c done\n\n"
    "dcs\x1bPqPWNED-DCS\x1b\\ apc\x1b_PWNED-APC\x1b\\ end\n\n"
    "open\x1b]0;PWNED-OPEN\n\n"
    "AFTER-OPEN-STILL-SHOWS"
)
THINKING = "think\x1b]0;PWNED-THINK\x07 hard\x1b]52;c;UFdORUQtVEhJTks=\x07 ok"
PAYLOADS = (b"PWNED", b"UFdORUQ")  # the hostile titles and their base64 clipboard texts


def assert_clean(raw: bytes) -> None:
    """No hostile payload and no hostile sequence in what pi wrote."""
    for payload in PAYLOADS:
        assert payload not in raw, raw[max(0, raw.find(payload) - 200) :][:400]
    assert b"\x1b]52" not in raw  # pi writes the clipboard only on /copy
    assert b"\xc2\x9b" not in raw and b"\xc2\x9d" not in raw  # 8-bit CSI and OSC, in UTF-8
    assert b"\x1bP" not in raw and b"\x1b_" not in raw


def start_recording(screen: Screen, *args: str, env: dict[str, str] | None = None) -> Path:
    """Start pi recording all it writes to the pane; wait for its editor (unless dumb)."""
    raw = screen.home / "pane.raw"
    screen.start_recorded(raw, *args, env=env)
    if env is None:
        screen.ready()
    return raw


def test_a_hostile_answer_and_thinking_are_cleaned(screen: Screen) -> None:
    screen.server.queue(chat_stream(ANSWER, reasoning=THINKING))
    raw_path = start_recording(screen)
    screen.type("hello")
    screen.keys("Enter")
    shown = screen.wait_for("AFTER-OPEN-STILL-SHOWS")
    raw = screen.wait_for_output(raw_path, b"AFTER-OPEN-STILL-SHOWS")
    assert_clean(raw)
    assert b"\x1b[2J" not in raw  # the screen is never cleared
    assert b"\x1b[1m" in raw  # the answer's bold, pi's own styling, is still drawn
    assert "wipenow" in shown and "title␛ set" in shown and "clip␛ board" in shown
    assert "eight bit ␛ done" in shown and "dcs␛ apc␛ end" in shown
    assert "think␛ hard␛ ok" in shown
    assert "PWNED" not in screen.title()


def test_a_hostile_bash_call_and_its_output_are_cleaned(screen: Screen) -> None:
    # the output holds an OSC 52 ended by ST; the command itself a title sequence
    command = "printf 'out\\033]52;c;%s%s\\033\\\\ put\\n' UFdO RUQtT1VU # \x1b]0;PWNED-CMD\x07"
    screen.server.queue(chat_stream("", tool_calls=[("bash", {"command": command})]),
                        chat_stream("CALL-DONE"))  # fmt: skip
    raw_path = start_recording(screen)
    screen.type("run it")
    screen.keys("Enter")
    shown = screen.wait_for("CALL-DONE")
    raw = screen.wait_for_output(raw_path, b"CALL-DONE")
    assert_clean(raw)
    assert "out␛ put" in shown
    assert "# ␛" in shown
    assert "PWNED" not in screen.title()


@pytest.mark.parametrize("bang", ["!", "!!"])
def test_bang_command_output_is_cleaned(screen: Screen, bang: str) -> None:
    raw_path = start_recording(screen)
    screen.type(f"{bang}printf 'shown\\033]52;c;%s%s\\033\\\\ here\\n' UFdO RUQtQkFORw==")
    screen.keys("Enter")
    shown = screen.wait_for("shown␛ here")
    raw = screen.wait_for_output(raw_path, "shown␛ here".encode())
    assert_clean(raw)
    assert "$ printf" in shown


PLUGIN = """
from pi_core import hookimpl


def hostile(args, ctx):
    ctx.ui.notify("note\\x1b]0;PWNED-NOTE\\x07 \\x1b[2Jafter-note")
    ctx.ui.notify("warn\\x1b]52;c;UFdORUQtV0FSTg==\\x07ing-shown", "warning")
    ctx.ui.set_status("k", "stat\\x1b]0;PWNED-STATUS\\x07us-shown")
    ctx.ui.set_widget("w", ["wid\\x01\\x1b]52;c;UFdORUQtV0lE\\x07\\x02get-shown"])
    ctx.ui.set_working_message("work\\x1b]0;PWNED-WORK\\x07ing")
    ctx.ui.set_title("title\\x07\\x1b]52;c;UFdORUQtVElUTEU=\\x07-shown")
    ctx.ui.notify("ALL-SET")


def rename(args, ctx):
    ctx.set_session_name("evil\\x1b]0;PWNED-NAME\\x07\\x1b]52;c;UFdORUQtTkFNRQ==\\x07 name")


@hookimpl
def register_commands(register):
    register("hostile", hostile, description="Hostile notify, status, widget, title")
    register("rename", rename, description="A hostile session name")
"""


def plugin(screen: Screen) -> Path:
    path = screen.home / "hostile.py"
    path.write_text(PLUGIN)
    return path


def test_plugin_notify_status_widget_and_title_are_cleaned(screen: Screen) -> None:
    raw_path = start_recording(screen, "-e", str(plugin(screen)))
    screen.type("/hostile")
    screen.keys("Enter")
    shown = screen.wait_for(lambda s: "ALL-SET" in s and "get-shown" in s and "us-shown" in s)
    raw = screen.wait_for_output(raw_path, b"ALL-SET")
    assert_clean(raw)
    assert b"\x1b[2J" not in raw
    assert b"\x1b[33m" in raw  # the warning's yellow survives
    assert "note␛ after-note" in shown and "warn␛ing-shown" in shown
    assert "wid␁␛␂get-shown" in shown and "stat␛us-shown" in shown
    assert screen.title() == "title␇␛-shown"


def test_a_hostile_session_name_is_cleaned_in_footer_title_and_resume(screen: Screen) -> None:
    screen.server.queue(chat_stream("first answer"))
    raw_path = start_recording(screen, "-e", str(plugin(screen)))
    screen.type("hello there")
    screen.keys("Enter")
    screen.wait_for("first answer")
    screen.type("/rename")
    screen.keys("Enter")
    screen.wait_for("evil␛␛ name")  # the footer
    screen.type("/new")
    screen.keys("Enter")
    screen.wait_for("New session started")
    screen.type("/resume")
    screen.keys("Enter")
    shown = screen.wait_for("Resume Session")
    raw = screen.wait_for_output(raw_path, b"Resume Session")
    assert_clean(raw)
    assert "evil␛␛ name" in shown
    screen.keys("Enter")
    screen.wait_for("Resumed session")
    assert screen.title().startswith("π - evil␛␛ name")
    assert_clean(raw_path.read_bytes())


def test_tree_rows_are_cleaned(screen: Screen) -> None:
    screen.server.queue(chat_stream(ANSWER, reasoning=THINKING))
    screen.start()
    screen.ready()
    screen.type("hello")
    screen.keys("Enter")
    screen.wait_for("AFTER-OPEN-STILL-SHOWS")
    raw_path = screen.home / "tree.raw"
    screen.record_output(raw_path)  # from here on: the tree only
    screen.type("/tree")
    screen.keys("Enter")
    shown = screen.wait_for("Session Tree")
    raw = screen.wait_for_output(raw_path, b"Session Tree")
    assert_clean(raw)
    assert "assistant: **bold start** wipenow title␛ set" in shown


def test_file_names_in_the_completion_menu_are_cleaned(screen: Screen) -> None:
    (screen.cwd / "evil\x1b]0;PWNED-FILE\x07name.txt").write_text("")
    raw_path = start_recording(screen)
    screen.type("see @evil")
    screen.wait_for("evil␛name.txt")
    raw = screen.wait_for_output(raw_path, "evil␛name.txt".encode())
    assert_clean(raw)


def test_a_hostile_branch_name_is_cleaned_in_the_footer(screen: Screen) -> None:
    (screen.cwd / ".git").mkdir()
    (screen.cwd / ".git" / "HEAD").write_text("ref: refs/heads/evil\x1b]0;PWNED-BRANCH\x07ish\n")
    raw_path = start_recording(screen)
    screen.wait_for("~/project (evil␛ish)")
    raw = screen.wait_for_output(raw_path, "(evil␛ish)".encode())
    assert_clean(raw)


def test_the_dumb_terminal_repl_cleans_the_answer(screen: Screen) -> None:
    screen.server.queue(chat_stream(ANSWER))
    raw_path = start_recording(screen, env={"TERM": "dumb"})
    screen.wait_for("> ")
    screen.type("hello")
    screen.keys("Enter")
    screen.wait_for("AFTER-OPEN-STILL-SHOWS")
    raw = screen.wait_for_output(raw_path, b"AFTER-OPEN-STILL-SHOWS")
    assert_clean(raw)
    assert b"\x1b" not in raw.replace(b"\x1b[?2004", b"")  # the dumb REPL writes none at all


def test_print_mode_cleans_the_answer_on_a_terminal(screen: Screen) -> None:
    screen.server.queue(chat_stream(ANSWER))
    raw_path = start_recording(screen, "-p", "hello", env={})
    raw = screen.wait_for_output(raw_path, b"EXIT=")
    assert b"AFTER-OPEN-STILL-SHOWS" in raw
    assert_clean(raw)


def test_print_mode_into_a_pipe_keeps_the_bytes(tmp_path: Path, isolated_agent_dir: Path) -> None:
    with FakeLLMServer() as server:
        models = chat_models_json(server.base_url)
        (isolated_agent_dir / "models.json").write_text(json.dumps(models))
        server.queue(chat_stream(ANSWER))
        pi = str(Path(sys.executable).with_name("pi"))
        done = subprocess.run(
            [pi, "--provider", "fake", "--model", "fake-model", "-p", "hello"],
            capture_output=True, cwd=tmp_path, timeout=60,
            env={"HOME": str(tmp_path), "PI_CODING_AGENT_DIR": str(isolated_agent_dir),
                 "PATH": "/usr/bin:/bin"},
        )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout == ANSWER.encode() + b"\n"


LOUD_PLUGIN = """
from pi_core import hookimpl

print("loaded\\x1b]0;PWNED-LOAD\\x07 plugin-says-hi")


@hookimpl
def agent_start(event, ctx):
    raise RuntimeError("boom\\x1b]52;c;UFdORUQtRVJS\\x07 hook-failed")
"""


def loud_plugin(screen: Screen) -> Path:
    path = screen.home / "loud.py"
    path.write_text(LOUD_PLUGIN)
    return path


def test_what_a_plugin_prints_while_loading_is_cleaned(screen: Screen) -> None:
    raw_path = start_recording(screen, "-e", str(loud_plugin(screen)))
    screen.wait_for("loaded␛ plugin-says-hi")
    assert_clean(screen.wait_for_output(raw_path, "loaded␛ plugin-says-hi".encode()))


def test_print_mode_cleans_a_plugin_error_on_a_terminal(screen: Screen) -> None:
    # what a plugin prints itself goes to the terminal as it is: pi cleans what it prints
    path = screen.home / "failing.py"
    path.write_text(LOUD_PLUGIN.replace("print(", "str("))
    screen.server.queue(chat_stream("fine"))
    raw_path = start_recording(screen, "-e", str(path), "-p", "hello", env={})
    raw = screen.wait_for_output(raw_path, b"EXIT=")
    assert "boom␛ hook-failed".encode() in raw
    assert_clean(raw)
