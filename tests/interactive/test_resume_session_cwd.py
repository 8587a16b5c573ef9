"""`/resume` of another folder's session moves the REPL to that folder, as pi 0.73.1 does
(checked against it in tmux): the footer shows it, `@` completes its files, the model's tools
and `!` commands run there, and `/new` afterwards stays there. `pi --session FILE` of another
folder's session starts there."""

from __future__ import annotations

import json

from pi_core.testing import chat_stream
from tests.interactive.conftest import Screen, stripped_lines
from tests.session.saved_sessions import resume_saved_session, write_saved_session


def footer_place(text: str) -> str:
    """The footer's folder line (the one below the editor's lower rule)."""
    lines = stripped_lines(text)
    rules = [i for i, line in enumerate(lines) if line and set(line) == {"─"}]
    return lines[rules[-1] + 1].split()[0]


def test_resume_of_another_folders_session_works_in_that_folder(screen: Screen) -> None:
    there = screen.cwd.parent / "there"
    there.mkdir()
    (there / "AGENTS.md").write_text("PLUMS-AGENTS-MARKER\n")
    (there / "plum_notes.md").write_text("plums\n")
    write_saved_session(screen.agent_dir, there)
    screen.start()
    assert footer_place(screen.ready()) == "~/project"
    resume_saved_session(screen)
    screen.wait_for(lambda s: "plums noted" in s and footer_place(s) == "~/there")
    screen.type("@plum_no")  # `@` completes the files of that folder
    screen.wait_for("plum_notes.md")
    screen.keys("Escape", "C-c")
    screen.wait_for(lambda s: "@plum_no" not in s)

    screen.server.queue(
        chat_stream(tool_calls=[("bash", {"command": "pwd"})]), chat_stream("pwd ran")
    )
    screen.type("where are we")
    screen.keys("Enter")
    screen.wait_for(lambda s: "pwd ran" in stripped_lines(s))
    first, second = (r.json()["messages"] for r in screen.server.requests)
    assert f"Current working directory: {there}" in first[0]["content"]
    assert "PLUMS-AGENTS-MARKER" in first[0]["content"]
    assert [m["content"].strip() for m in second if m["role"] == "tool"] == [str(there)]

    screen.type("/new")
    screen.keys("Enter")
    screen.wait_for(lambda s: "New session started" in s and footer_place(s) == "~/there")
    screen.type("!pwd")
    screen.keys("Enter")
    screen.wait_for(lambda s: stripped_lines(s).count(str(there)) == 1)  # /new cleared the tool's
    records = [json.loads(line) for f in screen.sessions() for line in f.read_text().splitlines()]
    assert not any("project" in str(r.get("cwd", "")) for r in records if r["type"] == "session")


def test_pi_session_of_another_folder_starts_in_that_folder(screen: Screen) -> None:
    there = screen.cwd.parent / "there"
    there.mkdir()
    session = write_saved_session(screen.agent_dir, there)
    screen.start("--session", str(session))
    screen.wait_for(lambda s: "plums noted" in s and "(fake) fake-model" in s)
    assert footer_place(screen.text()) == "~/there"
    screen.type("!pwd")
    screen.keys("Enter")
    screen.wait_for(lambda s: str(there) in stripped_lines(s))
