"""A plugin command that sends a user message: the turn it starts runs to its end in every mode
(`pi -p`, `--mode json`, RPC) before pi reports or exits."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from pi_core.testing import chat_stream
from tests.cli.conftest import Cli
from tests.cli.rpc_script import RpcProcess

ASK_PLUGIN = """
from pi_core import hookimpl


async def ask(args, ctx):
    ctx.send_user_message(f"Question: {args}")


@hookimpl
def register_commands(register):
    register("ask", ask, description="Ask the model")
"""


def ask_plugin(cli: Cli) -> Path:
    """Write the plugin whose `/ask TEXT` sends `Question: TEXT` as the user."""
    plugin = cli.cwd / "ask.py"
    plugin.write_text(ASK_PLUGIN)
    return plugin


def user_texts(cli: Cli, index: int) -> list[str]:
    """The user messages' texts in the request the fake server received at `index`."""
    messages = cli.server.requests[index].json()["messages"]
    return [m["content"][0]["text"] for m in messages if m["role"] == "user"]


def test_print_mode_sends_the_message_and_prints_the_reply(cli: Cli) -> None:
    cli.server.queue(chat_stream("Because."))
    result = cli.run("-e", str(ask_plugin(cli)), "-p", "/ask why")
    assert result.returncode == 0, result.stderr
    assert result.stdout == "Because.\n"
    assert user_texts(cli, 0) == ["Question: why"]
    [session] = cli.sessions()
    assert "Because." in session.read_text()  # the reply was kept, not cut off by the exit


def test_json_mode_prints_the_whole_turn(cli: Cli) -> None:
    cli.server.queue(chat_stream("Because."))
    result = cli.run("-e", str(ask_plugin(cli)), "--mode", "json", "/ask why")
    assert result.returncode == 0, result.stderr
    kinds = [json.loads(line)["type"] for line in result.stdout.splitlines()]
    assert kinds[0] == "session" and kinds[-1] == "agent_end"


def test_the_next_message_waits_for_the_commands_turn(cli: Cli) -> None:
    cli.server.queue(chat_stream("Because."), chat_stream("You are welcome."))
    result = cli.run("-e", str(ask_plugin(cli)), "-p", "/ask why", "thanks")
    assert result.returncode == 0, result.stderr
    assert result.stdout == "You are welcome.\n"
    assert user_texts(cli, 1) == ["Question: why", "thanks"]


def test_rpc_prompt_runs_the_commands_turn(cli: Cli) -> None:
    cli.server.queue(chat_stream("Because."))
    pi = str(Path(sys.executable).with_name("pi"))
    process = RpcProcess(
        [pi, "--mode", "rpc", "--no-session", "-e", str(ask_plugin(cli))], cli.cwd, cli.env
    )
    process.send({"id": "1", "type": "prompt", "message": "/ask why"})
    process.read_until(lambda r: r.get("type") == "agent_end")
    response = [r for r in process.records if r.get("type") == "response"]
    assert response == [{"id": "1", "type": "response", "command": "prompt", "success": True}]
    reply = process.records[-1]["messages"][-1]
    assert reply["role"] == "assistant" and reply["content"][0]["text"] == "Because."
    assert user_texts(cli, 0) == ["Question: why"]
    process.close()
