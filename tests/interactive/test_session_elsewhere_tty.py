"""In a terminal, `pi --session ID` of another project's session asks on the terminal before the
REPL starts, as pi 0.73.1 does: "y" forks it into the current folder and the REPL goes on there
with its history; "n" says "Aborted." and exits 0."""

from __future__ import annotations

import json

from tests.interactive.conftest import Screen
from tests.interactive.test_resume_session_cwd import footer_place
from tests.session.saved_sessions import SESSION_ID, write_saved_session

QUESTION = "Fork this session into current directory? [y/N]"


def test_yes_forks_and_starts_the_repl_in_the_current_folder(screen: Screen) -> None:
    there = screen.cwd.parent / "there"
    there.mkdir()
    source = write_saved_session(screen.agent_dir, there)
    screen.start("--session", SESSION_ID[:13])
    screen.wait_for(lambda s: f"Session found in different project: {there}" in s and QUESTION in s)
    screen.type("y")
    screen.keys("Enter")
    text = screen.wait_for(lambda s: "plums noted" in s and "(fake) fake-model" in s)
    assert footer_place(text) == "~/project"
    forks = [p for p in screen.sessions() if p != source]
    assert len(forks) == 1
    header = json.loads(forks[0].read_text().splitlines()[0])
    assert header["cwd"] == str(screen.cwd) and header["parentSession"] == str(source)


def test_no_aborts_with_exit_code_0(screen: Screen) -> None:
    there = screen.cwd.parent / "there"
    there.mkdir()
    source = write_saved_session(screen.agent_dir, there)
    screen.start("--session", SESSION_ID[:13])
    screen.wait_for(QUESTION)
    screen.type("n")
    screen.keys("Enter")
    screen.wait_for(lambda s: "Aborted." in s and "EXIT=0" in s)
    assert screen.sessions() == [source]
