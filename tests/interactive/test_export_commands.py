"""`/export`, `/import` and `/share` in the real REPL (tmux), `gh` replaced by a script on PATH."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

from pi_core.testing import chat_stream
from tests.export.page_checks import tree_data
from tests.export.sessions import ordinary_session, write_session
from tests.interactive.conftest import Screen, stripped_lines


def ask(screen: Screen, text: str, answer: str) -> None:
    screen.server.queue(chat_stream(answer))
    screen.type(text)
    screen.keys("Enter")
    screen.wait_for(lambda s: answer in stripped_lines(s))


def command(screen: Screen, text: str) -> None:
    screen.type(text)
    screen.keys("Enter")


def test_export_writes_the_page_and_the_branch_as_jsonl(screen: Screen) -> None:
    screen.start()
    screen.ready()
    ask(screen, "first question", "FIRST-ANSWER")
    command(screen, "/export")
    name = f"pi-session-{screen.sessions()[0].stem}.html"
    screen.wait_for(f"Session exported to: {name}")
    page = (screen.cwd / name).read_text()
    assert "FIRST-ANSWER" in page and "System Prompt" in page
    assert len(tree_data(page)["rows"]) >= 2
    command(screen, '/export "my branch.jsonl"')
    screen.wait_for(f"Session exported to: {screen.cwd / 'my branch.jsonl'}")
    records = [
        json.loads(line) for line in (screen.cwd / "my branch.jsonl").read_text().splitlines()
    ]
    assert records[0]["type"] == "session"
    assert [r["parentId"] for r in records[1:]] == [None, *(r["id"] for r in records[1:-1])]
    assert records[-1]["message"]["content"][0]["text"] == "FIRST-ANSWER"


def test_export_of_an_unsaved_session_says_why_it_cannot(screen: Screen) -> None:
    screen.start("--no-session")
    screen.ready()
    command(screen, "/export")
    screen.wait_for("Failed to export session: Cannot export in-memory session to HTML")


def test_import_replaces_the_session_after_confirmation(screen: Screen) -> None:
    source = write_session(screen.cwd / "other.jsonl", ordinary_session())
    screen.start()
    screen.ready()
    command(screen, "/import other.jsonl")
    screen.wait_for("Replace current session with other.jsonl?")
    screen.keys("Down", "Enter")  # No
    screen.wait_for("Import cancelled")
    command(screen, "/import other.jsonl")
    screen.wait_for(lambda s: s.count("Replace current session with other.jsonl?") == 1)
    screen.keys("Enter")  # Yes
    screen.wait_for("Session imported from: other.jsonl")
    imported = list(screen.agent_dir.glob("sessions/**/other.jsonl"))
    assert len(imported) == 1 and imported[0].read_text() == source.read_text()
    ask(screen, "and now?", "CONTINUED")
    sent = json.dumps(screen.server.requests[-1].json()["messages"])
    assert "SIDE-BRANCH-QUESTION" in sent  # the imported conversation is the context now


def test_import_needs_a_path_and_an_existing_file(screen: Screen) -> None:
    screen.start()
    screen.ready()
    command(screen, "/import")
    screen.wait_for("Usage: /import <path.jsonl>")
    command(screen, "/import nowhere.jsonl")
    screen.wait_for("Replace current session with nowhere.jsonl?")
    screen.keys("Enter")
    screen.wait_for("Failed to import session: File not found:")


FAKE_GH = """#!/bin/sh
echo "$@" >> "$GH_LOG"
if [ "$1" = auth ]; then exit "$GH_AUTH_EXIT"; fi
if [ "$1" = gist ]; then
  cp "$4" "$GH_LOG.html"
  echo "https://gist.github.com/someone/abc123def"
fi
"""


def fake_gh(screen: Screen, auth_exit: int) -> dict[str, str]:
    folder = screen.home / "bin"
    folder.mkdir(exist_ok=True)
    script = folder / "gh"
    script.write_text(FAKE_GH)
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    return {
        "PATH": f"{folder}:{os.environ['PATH']}",
        "GH_LOG": str(screen.home / "gh.log"),
        "GH_AUTH_EXIT": str(auth_exit),
        "PI_SHARE_VIEWER_URL": "http://viewer.test/",
    }


def test_share_uploads_a_secret_gist_with_gh(screen: Screen) -> None:
    screen.start(env=fake_gh(screen, 0))
    screen.ready()
    ask(screen, "share this", "SHARED-ANSWER")
    command(screen, "/share")
    shown = screen.wait_for("Gist: https://gist.github.com/someone/abc123def")
    assert "Share URL: http://viewer.test/#abc123def" in shown
    log = (screen.home / "gh.log").read_text().splitlines()
    assert log[0] == "auth status"
    assert log[1].startswith("gist create --public=false ") and log[1].endswith("session.html")
    assert "SHARED-ANSWER" in Path(str(screen.home / "gh.log") + ".html").read_text()
    assert not Path(log[1].split()[-1]).exists()  # the temporary page is removed


def test_share_says_when_gh_is_logged_out_or_missing(screen: Screen) -> None:
    screen.start(env=fake_gh(screen, 1))
    screen.ready()
    command(screen, "/share")
    screen.wait_for("GitHub CLI is not logged in. Run 'gh auth login' first.")
    screen.close()
    empty = screen.home / "empty-bin"
    empty.mkdir()
    screen.start(env={"PATH": str(empty)})
    screen.ready()
    command(screen, "/share")
    screen.wait_for("GitHub CLI (gh) is not installed. Install it from https://cli.github.com/")
