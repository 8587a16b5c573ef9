"""`/resume` and `pi -r` in the real REPL: search, choose, cancel, rename, delete, scope."""

from __future__ import annotations

import json
from pathlib import Path

from pi_core.testing import chat_stream
from tests.interactive.conftest import Screen, stripped_lines


def ask(screen: Screen, text: str, answer: str) -> None:
    screen.server.queue(chat_stream(answer))
    screen.type(text)
    screen.keys("Enter")
    screen.wait_for(lambda s: answer in stripped_lines(s))


def command(screen: Screen, text: str) -> None:
    screen.type(text)
    screen.keys("Enter")


def two_sessions(screen: Screen) -> None:
    screen.start()
    screen.ready()
    ask(screen, "talk about apples", "apples are red")
    command(screen, "/new")
    screen.wait_for("✓ New session started")
    ask(screen, "talk about bananas", "bananas are yellow")


def open_resume(screen: Screen) -> str:
    command(screen, "/resume")
    return screen.wait_for("Resume Session")


def test_resume_searches_and_switches(screen: Screen) -> None:
    two_sessions(screen)
    shown = open_resume(screen)
    assert "talk about apples" in shown and "talk about bananas  · 2 msgs" in shown
    screen.type("apples")
    screen.wait_for(lambda s: "(1/1)" in s and "→ talk about apples" in s)
    screen.keys("Enter")
    screen.wait_for("Resumed session")
    ask(screen, "more apples", "green ones too")
    request = screen.server.requests[-1].json()
    assert "apples are red" in json.dumps(request["messages"])
    assert "bananas" not in json.dumps(request["messages"])


def test_resume_regex_search_and_cancel(screen: Screen) -> None:
    two_sessions(screen)
    open_resume(screen)
    screen.type("re:ban+a")
    screen.wait_for(lambda s: "(1/1)" in s and "→ talk about bananas" in s)
    screen.keys("Escape")
    screen.wait_for(lambda s: "Resume Session" not in s)
    ask(screen, "still bananas", "yes")  # the open session did not change
    assert "bananas are yellow" in json.dumps(screen.server.requests[-1].json()["messages"])


def test_resume_renames_and_deletes_after_confirmation(screen: Screen) -> None:
    two_sessions(screen)
    open_resume(screen)
    screen.type("apples")
    screen.wait_for("→ talk about apples")
    screen.keys("C-r")
    screen.wait_for("Rename session")
    screen.type("fruit notes")
    screen.keys("Enter")
    screen.wait_for(lambda s: "→ fruit notes" in s)
    screen.keys("C-d")
    screen.wait_for("Delete session?")
    screen.keys("Down", "Enter")  # No
    screen.wait_for(lambda s: "→ fruit notes" in s and "Delete session?" not in s)
    assert len(screen.sessions()) == 2
    screen.keys("C-d")
    screen.wait_for("Delete session?")
    screen.keys("Enter")  # Yes
    screen.wait_for("(0/0)")
    assert len(screen.sessions()) == 1


def test_resume_scope_all_folders_and_missing_folder(screen: Screen) -> None:
    screen.start()
    screen.ready()
    ask(screen, "here in project", "ok")
    screen.keys("C-d")
    screen.wait_for("EXIT=0")
    screen.close()
    other = screen.cwd.parent / "elsewhere"
    other.mkdir()
    screen.cwd, home_project = other, screen.cwd
    screen.start()
    screen.ready()
    ask(screen, "from elsewhere", "fine")
    screen.keys("C-d")
    screen.wait_for("EXIT=0")
    screen.close()
    for path in screen.sessions():  # the "elsewhere" session's folder disappears
        if "from elsewhere" in path.read_text():
            moved = path
    _remove_tree(other)
    screen.cwd = home_project
    screen.start()
    screen.ready()
    shown = open_resume(screen)
    assert "here in project" in shown and "from elsewhere" not in shown
    screen.keys("Tab")
    screen.wait_for(lambda s: "scope: all folders" in s and "from elsewhere" in s)
    screen.type("elsewhere")
    screen.wait_for("→ from elsewhere")
    screen.keys("Enter")
    screen.wait_for("Session folder not found")
    screen.keys("Enter")  # Yes: continue it in the current folder
    screen.wait_for("in the current folder")
    assert moved.exists()


def test_pi_r_opens_the_picker_and_cancel_exits(screen: Screen) -> None:
    screen.start()
    screen.ready()
    ask(screen, "remember me", "remembered")
    screen.keys("C-d")
    screen.wait_for("EXIT=0")
    screen.close()
    screen.start("-r")
    screen.wait_for("Resume Session")
    screen.wait_for("→ remember me")
    screen.keys("Escape")
    screen.wait_for("EXIT=0")
    screen.close()
    screen.start("--resume")
    screen.wait_for("→ remember me")
    screen.keys("Enter")
    screen.wait_for("Resumed session")
    ask(screen, "and now?", "still here")
    assert "remembered" in json.dumps(screen.server.requests[-1].json()["messages"])


def _remove_tree(path: Path) -> None:
    import shutil

    shutil.rmtree(path)
