"""A session holding a line nested thousands deep is listed by `/resume`, opens and goes on."""

from __future__ import annotations

from pi_core.session.paths import default_session_dir
from pi_core.testing import chat_stream
from tests.interactive.conftest import Screen, stripped_lines
from tests.reliability.test_deep_values import SESSION_ID, session_lines


def test_resume_lists_and_opens_a_session_with_a_deep_line(screen: Screen) -> None:
    folder = default_session_dir(str(screen.cwd), screen.agent_dir)
    session = folder / f"2026-11-22T10-00-00-000Z_{SESSION_ID}.jsonl"
    before = "".join(line + "\n" for line in session_lines(str(screen.cwd), 3000)).encode()
    session.write_bytes(before)
    screen.start()
    screen.ready()

    screen.type("/resume")
    screen.keys("Enter")
    screen.wait_for(lambda s: "Resume Session" in s and "go deep" in s)
    screen.type("go deep")
    screen.wait_for("→ go deep")
    screen.keys("Enter")
    screen.wait_for("Resumed session")
    screen.server.queue(chat_stream("deep and well"))
    screen.type("next")
    screen.keys("Enter")
    screen.wait_for(lambda s: "deep and well" in stripped_lines(s))

    sent = screen.server.requests[-1].json()["messages"]
    (assistant,) = [m for m in sent if m["role"] == "assistant"]
    assert assistant["tool_calls"][0]["function"]["arguments"].count("[") == 3000
    assert session.read_bytes().startswith(before)
