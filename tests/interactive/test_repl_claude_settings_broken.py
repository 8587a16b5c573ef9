"""Plain pi with `claudeSettings: true` in a `.pi/settings.json` that is not valid JSON: the REPL
says why, refuses tool calls, and judges them by the `.claude` rules once the file is fixed."""

from __future__ import annotations

import json

from pi_core.testing import chat_stream
from tests.interactive.conftest import Screen

BROKEN = '{"claudeSettings": true,}'


def test_a_broken_opt_in_refuses_tools_until_the_file_is_fixed(screen: Screen) -> None:
    settings = screen.cwd / ".pi" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(BROKEN)
    (screen.cwd / ".claude").mkdir()
    (screen.cwd / ".claude" / "settings.json").write_text(
        json.dumps({"permissions": {"allow": ["Bash(touch:*)"], "deny": ["Bash(rm:*)"]}})
    )
    (screen.cwd / "keep").write_text("x")
    screen.server.queue(
        chat_stream(tool_calls=[("bash", {"command": "touch first"})]),
        chat_stream("first was refused"),
        chat_stream(tool_calls=[("bash", {"command": "rm keep"})]),
        chat_stream(tool_calls=[("bash", {"command": "touch second"})]),
        chat_stream("second ran"),
    )
    screen.start()
    screen.ready()
    screen.wait_for("pi cannot tell whether Claude's permission rules apply")
    screen.type("one")
    screen.keys("Enter")
    screen.wait_for("first was refused")
    assert not (screen.cwd / "first").exists()
    refused = json.dumps(screen.server.requests[1].json()["messages"])
    assert str(settings) in refused and "No tool may run until the file is fixed" in refused
    assert settings.read_text() == BROKEN

    settings.write_text('{"claudeSettings": true}')  # fixed: the .claude rules judge from now on
    screen.type("two")
    screen.keys("Enter")
    screen.wait_for("second ran")
    assert (screen.cwd / "keep").exists()
    assert (screen.cwd / "second").exists()
    denied = json.dumps(screen.server.requests[3].json()["messages"][-1])
    assert "Permission to use Bash with command rm keep has been denied" in denied
