"""Plain pi with Claude settings: a Task subagent's call that needs approval asks in the REPL."""

from __future__ import annotations

import json

from pi_core.testing import chat_stream
from tests.interactive.conftest import Screen

TASK = {"description": "Tidy", "prompt": "tidy up", "subagent_type": "general-purpose"}


def test_a_subagents_ask_is_the_parents_dialog(screen: Screen) -> None:
    settings = {"defaultProvider": "fake", "defaultModel": "fake-model",
                "claudeSettings": True, "toolProfile": "claude"}  # fmt: skip
    (screen.agent_dir / "settings.json").write_text(json.dumps(settings))
    (screen.cwd / ".claude").mkdir()
    (screen.cwd / ".claude" / "settings.json").write_text(json.dumps({"permissions": {}}))
    screen.server.queue(
        chat_stream(tool_calls=[("Task", TASK)]),
        chat_stream(tool_calls=[("Bash", {"command": "touch pwned"})]),  # the subagent's call
        chat_stream("the subagent was refused"),
        chat_stream("all done"),
    )
    screen.start()
    screen.ready()
    screen.type("go")
    screen.keys("Enter")
    shown = screen.wait_for("Allow Bash?")
    assert "touch pwned" in shown
    screen.keys("Down", "Enter")  # No
    screen.wait_for("all done")
    assert not (screen.cwd / "pwned").exists()
    subagent_turn = json.dumps(screen.server.requests[2].json()["messages"])
    assert "The user denied Bash." in subagent_turn
