"""The REPL's start: the editor is drawn before the agent loads, keys typed meanwhile are kept,
nothing is sent before every plugin has loaded, and leaving during the start is clean."""

from __future__ import annotations

import os
import signal

import pytest

from pi_core.testing import chat_stream
from tests.interactive.conftest import Screen, editor_lines

# A plugin whose session start waits (without blocking the loop) until the test creates a file:
# the agent is certainly still loading while the test types.
SLOW_START = """
import asyncio
from pathlib import Path

from pi_core import hookimpl


@hookimpl
async def session_start(event, ctx):
    go = Path(__file__).with_name("go")
    while not go.exists():
        await asyncio.sleep(0.01)
"""

STARTING = "starting…"


def start_held(screen: Screen, *args: str) -> None:
    """Start pi with the slow-start plugin; return once the early editor is drawn."""
    plugin = screen.home / "slow_start.py"
    plugin.write_text(SLOW_START)
    screen.start("-e", str(plugin), *args)
    screen.wait_for(STARTING)


def release(screen: Screen) -> None:
    """Let the slow-start plugin finish its session start."""
    (screen.home / "go").write_text("")


def test_text_typed_while_the_agent_loads_shows_and_is_kept(screen: Screen) -> None:
    start_held(screen)
    screen.type("draft")
    shown = screen.wait_for(lambda s: editor_lines(s)[:1] == ["draft"])
    assert STARTING in shown  # echoed by the early editor, before the agent is up
    release(screen)
    shown = screen.wait_for("(fake) fake-model")
    assert editor_lines(shown) == ["draft"]
    assert STARTING not in shown


def test_enter_during_the_start_sends_only_once_every_plugin_has_loaded(screen: Screen) -> None:
    screen.server.queue(chat_stream("answer-after-start"))
    start_held(screen)
    screen.type("draft")
    screen.keys("Left", "Left", "X", "Enter")  # held in order, for the REPL's own bindings
    screen.wait_for("keys are kept until it is ready")
    assert screen.server.requests == []
    release(screen)
    screen.wait_for("answer-after-start")
    sent = screen.server.requests[0].json()["messages"]
    assert sent[-1]["content"] in ("draXft", [{"type": "text", "text": "draXft"}])


def test_ctrl_c_twice_during_the_start_leaves_and_restores_the_terminal(screen: Screen) -> None:
    plugin = screen.home / "slow_start.py"
    plugin.write_text(SLOW_START)
    screen.start_in_shell("-e", str(plugin))  # never released
    screen.wait_for(STARTING)
    screen.keys("C-c", "C-c")
    screen.wait_for(lambda s: STARTING not in s and s.rstrip().endswith("$"))
    screen.type("stty -a | tr ' ' '\\n' | grep -x -e icanon -e -icanon -e echo -e -echo")
    screen.keys("Enter")
    shown = screen.wait_for(lambda s: "icanon" in s.split("grep")[-1])
    answer = shown.split("grep")[-1].split()
    assert "icanon" in answer and "echo" in answer  # cooked again, as before pi started


def test_sigterm_during_the_start_exits_cleanly(screen: Screen) -> None:
    start_held(screen)
    os.kill(screen.pi_pid(), signal.SIGTERM)
    screen.wait_for("EXIT=0")


def test_a_plugin_that_fails_to_load_stops_the_start_with_its_error(screen: Screen) -> None:
    plugin = screen.home / "broken_plugin.py"
    plugin.write_text("raise RuntimeError('cannot start here')\n")
    screen.start("-e", str(plugin))
    shown = screen.wait_for("EXIT=1")
    assert "cannot start here" in shown
    assert "(fake) fake-model" not in shown


SHOUT = """
from pi_core import hookimpl


@hookimpl
def register_flags(register):
    register("shout", type="boolean", description="Answer in capitals")


@hookimpl
def before_agent_start(event, ctx):
    if ctx.get_flag("shout"):
        return {"system_prompt": event.system_prompt + "\\nANSWER IN CAPITALS"}
"""


def test_a_plugin_flag_on_the_command_line_still_reaches_the_plugin(screen: Screen) -> None:
    plugin = screen.home / "shout.py"
    plugin.write_text(SHOUT)
    screen.server.queue(chat_stream("OK LOUD"))
    screen.start("-e", str(plugin), "--shout", "hello")  # the plugins load before the editor
    screen.wait_for("OK LOUD")
    system = screen.server.requests[0].json()["messages"][0]["content"]
    assert system.endswith("ANSWER IN CAPITALS")


class _Tty:
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(
    ("args", "wanted"),
    [
        ([], True),
        (["-c", "--model", "fake/fake-model", "@notes.md", "a message"], True),
        (["--thinking=high", "-e", "plugin.py"], True),
        (["--shout"], False),  # a plugin's flag: the plugins must load to parse it
        (["-p", "hi"], False),
        (["--mode", "rpc"], False),
        (["-r"], False),
        (["--help"], False),
        (["--", "--not-an-option"], True),
    ],
)
def test_the_editor_comes_first_only_when_no_option_needs_the_plugins(
    monkeypatch: pytest.MonkeyPatch, args: list[str], wanted: bool
) -> None:
    from pi_core.modes.command import run_command
    from pi_core.modes.early_start import early_start_wanted

    monkeypatch.setattr("sys.stdin", _Tty())
    monkeypatch.setattr("sys.stdout", _Tty())
    monkeypatch.setenv("TERM", "xterm-256color")
    known = {name for param in run_command.params for name in param.opts}
    assert early_start_wanted(args, known) is wanted
    monkeypatch.setenv("TERM", "dumb")
    assert early_start_wanted(args, known) is False
