"""`@` mentions from plugins (`register_completions`): the MCP plugin's resources, from a real
MCP server subprocess, are offered in the `@` menu and attached to the prompt when sent."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from pi_core.testing import chat_stream
from tests.interactive.conftest import Screen

DEMO = (
    Path(__file__).parents[2] / "plugins" / "pi-plugin-mcp" / "tests" / "servers" / "demo_server.py"
)


def wait_connected(screen: Screen, server: str) -> None:
    """Ask `/mcp` until the server (connecting in the background) is connected."""
    while True:
        screen.type("/mcp")
        screen.keys("Enter")
        if f"{server}  [connected]" in screen.wait_for(f"{server}  ["):
            return


def test_an_mcp_resource_is_completed_after_at_and_its_text_goes_with_the_prompt(
    screen: Screen,
) -> None:
    servers = {"demo": {"command": sys.executable, "args": [str(DEMO), "stdio"]}}
    (screen.cwd / ".mcp.json").write_text(json.dumps({"mcpServers": servers}))
    (screen.cwd / "notes.txt").write_text("a file, so the menu has files too\n")
    screen.server.queue(chat_stream("Got the greeting."))
    screen.start()
    screen.ready()
    wait_connected(screen, "demo")
    screen.type("summarise @greet")
    menu = screen.wait_for("demo:demo://greeting")
    assert "mcp" in menu  # the source is named
    screen.keys("Tab")  # takes the first entry, the resource, and closes the menu
    screen.wait_for("summarise @demo:demo://greeting")
    screen.keys("Enter")  # send
    screen.wait_for("Got the greeting.")
    request = screen.server.requests[-1].json()
    sent = json.dumps(request["messages"])
    assert "summarise @demo:demo://greeting" in sent
    assert '<resource name=\\"demo:demo://greeting\\">' in sent
    assert "hello from the demo server" in sent


def test_a_mention_no_plugin_claims_is_sent_as_typed(screen: Screen) -> None:
    servers = {"demo": {"command": sys.executable, "args": [str(DEMO), "stdio"]}}
    (screen.cwd / ".mcp.json").write_text(json.dumps({"mcpServers": servers}))
    screen.server.queue(chat_stream("ok then"))
    screen.start()
    screen.ready()
    screen.type("look at @demo:demo://missing please")
    screen.keys("Enter")
    screen.wait_for("ok then")
    sent = json.dumps(screen.server.requests[-1].json()["messages"])
    assert "look at @demo:demo://missing please" in sent and "<resource" not in sent
