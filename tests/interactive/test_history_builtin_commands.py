"""pi 0.73.1 keeps its built-in commands (`/new`, `/name …`) out of the editor's history, but
keeps prompts and `!command` lines (checked in its interactive mode's submit handler); the
history file keeps the same lines Up recalls."""

from __future__ import annotations

from pi_core.modes.interactive.editor import history_path
from pi_core.modes.interactive.history_rule import kept_in_history
from pi_core.testing import chat_stream
from tests.interactive.conftest import Screen, editor_lines, stripped_lines


def test_builtin_commands_stay_out_of_the_history_and_the_file(screen: Screen) -> None:
    screen.start()
    screen.ready()
    screen.server.queue(chat_stream("FIRST-ANSWER"))
    screen.type("first question")
    screen.keys("Enter")
    screen.wait_for(lambda s: "FIRST-ANSWER" in stripped_lines(s))
    screen.type("!echo bash-said-$((40+2))")
    screen.keys("Enter")
    screen.wait_for("bash-said-42")
    screen.type("/name kept-out")
    screen.keys("Enter")
    screen.wait_for("kept-out")
    screen.type("/new")
    screen.keys("Enter")
    screen.wait_for("New session started")
    screen.keys("Up")  # the newest entry is the bash line, not a command
    screen.wait_for(lambda s: "!echo bash-said" in " ".join(editor_lines(s)))
    screen.keys("Up")
    screen.wait_for(lambda s: "first question" in " ".join(editor_lines(s)))
    stored = history_path(screen.agent_dir, str(screen.cwd)).read_text()
    assert "first question" in stored and "!echo bash-said" in stored
    assert "/new" not in stored and "/name" not in stored


def test_the_rule_follows_pi_command_by_command() -> None:
    for line in ("/new", " /resume ", "/model", "/model fake", "/compact short", "/quit"):
        assert not kept_in_history(line), line
    for line in ("hello", "!ls", "/newer", "/modelx", "/skill:x", "/settings now", "/new x"):
        assert kept_in_history(line), line
