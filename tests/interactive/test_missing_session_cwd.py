"""The REPL and a saved session whose folder is gone, as in pi 0.73.1: `pi --session FILE` asks
first (Continue / Cancel, Cancel ends pi with 0), `/resume` asks (Yes / No, No keeps the open
session); continuing works in the current folder and appends to the same file, whose header
still names the old folder."""

from __future__ import annotations

import json
from pathlib import Path

from pi_core.testing import chat_stream
from tests.interactive.conftest import Screen, stripped_lines
from tests.session.saved_sessions import write_saved_session


def ask(screen: Screen, text: str, answer: str) -> None:
    screen.type(text)
    screen.keys("Enter")
    screen.wait_for(lambda s: answer in stripped_lines(s))


def header(session: Path) -> dict[str, object]:
    first: dict[str, object] = json.loads(session.read_text().splitlines()[0])
    return first


def test_pi_session_asks_first_cancel_exits_continue_works_here(screen: Screen) -> None:
    gone = screen.cwd.parent / "gone"
    session = write_saved_session(screen.agent_dir, gone)
    before = session.read_bytes()
    screen.start("--session", str(session))
    question = screen.wait_for(lambda s: "→ Continue" in s and "Cancel" in s)
    assert str(gone) in question and str(screen.cwd) in question
    screen.keys("Escape")
    screen.wait_for("EXIT=0")
    assert screen.server.requests == [] and session.read_bytes() == before
    screen.close()

    screen.start("--session", str(session))
    screen.wait_for("→ Continue")
    screen.keys("Enter")
    screen.ready()
    screen.server.queue(
        chat_stream(tool_calls=[("bash", {"command": "pwd"})]), chat_stream("we are here")
    )
    ask(screen, "where are we", "we are here")
    first, second = (r.json()["messages"] for r in screen.server.requests)
    assert "plums noted" in json.dumps(first)  # the saved history was loaded
    tool_results = [m for m in second if m["role"] == "tool"]
    assert str(screen.cwd) in json.dumps(tool_results)  # the tools run in the current folder
    assert screen.sessions() == [session]  # no other file: the turn went to the same one
    assert header(session)["cwd"] == str(gone)  # whose header is left as it was
    assert "where are we" in session.read_text()


def test_resume_asks_no_keeps_the_session_yes_continues_here(screen: Screen) -> None:
    gone = screen.cwd.parent / "gone"
    session = write_saved_session(screen.agent_dir, gone)
    screen.start()
    screen.ready()
    for answer in ("No", "Yes"):
        screen.type("/resume")
        screen.keys("Enter")
        screen.wait_for("Resume Session")
        screen.keys("Tab")  # all folders: the saved session is not of this one
        screen.wait_for("remember plums")
        screen.type("plums")
        screen.wait_for("→ remember plums")
        screen.keys("Enter")
        shown = screen.wait_for(lambda s: "Session folder not found" in s and "→ Yes" in s)
        assert str(gone) in shown and str(screen.cwd) in shown
        if answer == "No":
            screen.keys("Down", "Enter")
            screen.wait_for("Resume cancelled")
            screen.server.queue(chat_stream("fresh start"))
            ask(screen, "anything saved?", "fresh start")
            assert "plums" not in json.dumps(screen.server.requests[-1].json()["messages"])
        else:
            screen.keys("Enter")
            screen.wait_for("in the current folder")
            screen.server.queue(chat_stream("plums again"))
            ask(screen, "what did I say?", "plums again")
            assert "plums noted" in json.dumps(screen.server.requests[-1].json()["messages"])
    assert header(session)["cwd"] == str(gone)
    assert "what did I say?" in session.read_text()


def test_pi_r_asks_after_the_picker_and_cancel_exits(screen: Screen) -> None:
    session = write_saved_session(screen.agent_dir, screen.cwd.parent / "gone")
    before = session.read_bytes()
    screen.start("-r")
    screen.wait_for("Resume Session")
    screen.keys("Tab")
    screen.wait_for("→ remember plums")
    screen.keys("Enter")
    screen.wait_for(lambda s: "→ Continue" in s and "Cancel" in s)
    screen.keys("Down", "Enter")
    screen.wait_for("EXIT=0")
    assert screen.server.requests == [] and session.read_bytes() == before


def test_a_dumb_terminal_asks_in_a_line(screen: Screen) -> None:
    session = write_saved_session(screen.agent_dir, screen.cwd.parent / "gone")
    screen.start("--session", str(session), env={"TERM": "dumb"})
    screen.wait_for("[y/N]")
    screen.type("n")
    screen.keys("Enter")
    screen.wait_for("EXIT=0")
    screen.close()
    screen.start("--session", str(session), env={"TERM": "dumb"})
    screen.wait_for("[y/N]")
    screen.type("y")
    screen.keys("Enter")
    screen.server.queue(chat_stream("plums again"))
    screen.wait_for(lambda s: s.rstrip().endswith(">"))  # the line REPL's prompt
    screen.type("what did I say?")
    screen.keys("Enter")
    screen.wait_for("plums again")
    assert "plums noted" in json.dumps(screen.server.requests[-1].json()["messages"])


def test_import_asks_too(screen: Screen) -> None:
    saved = write_saved_session(screen.agent_dir, screen.cwd.parent / "gone")
    given = screen.cwd / "moved.jsonl"
    saved.rename(given)
    screen.start()
    screen.ready()
    screen.type("/import moved.jsonl")
    screen.keys("Enter")
    screen.wait_for("Replace current session with moved.jsonl?")
    screen.keys("Enter")  # Yes, replace it
    screen.wait_for(lambda s: "Session folder not found" in s and "→ Yes" in s)
    screen.keys("Enter")  # Yes, continue here
    screen.wait_for("Session imported from: moved.jsonl")
    screen.server.queue(chat_stream("plums again"))
    ask(screen, "what did I say?", "plums again")
    assert "plums noted" in json.dumps(screen.server.requests[-1].json()["messages"])
