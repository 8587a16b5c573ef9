"""The REPL with an MCP server that never answers: the session is usable at once."""

from __future__ import annotations

import json
import sys

from pi_core.testing import chat_stream
from tests.interactive.conftest import Screen


def test_a_server_that_never_answers_holds_up_neither_the_repl_nor_a_prompt(
    screen: Screen,
) -> None:
    never = {"command": sys.executable, "args": ["-c", "import sys; sys.stdin.read()"]}
    servers = {"never": {**never, "startupTimeout": 60_000}}
    (screen.cwd / ".mcp.json").write_text(json.dumps({"mcpServers": servers}))
    screen.server.queue(chat_stream("Answered while the server is still starting."))
    screen.start()
    screen.ready()
    screen.type("hello")
    screen.keys("Enter")
    # well before the 60 s the server may take to answer
    screen.wait_for("Answered while the server is still starting.", timeout=30)
    screen.type("/mcp")
    screen.keys("Enter")
    screen.wait_for("never  [starting]", timeout=30)
