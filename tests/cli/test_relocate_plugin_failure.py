"""Opening a session whose folder has a plugin that fails to load leaves the session where it
was (fail closed): pi 0.73.1 moves and goes on without that plugin, which would run the tools
there without a permission gate the folder means to have. The switch fails, saying which file
failed and why; the start folder's plugins (its gate among them) stay in force."""

from __future__ import annotations

import json
from pathlib import Path

from pi_core.testing import FakeLLMServer, chat_stream, console_script
from tests.cli.conftest import Cli
from tests.cli.rpc_script import RpcProcess
from tests.session.saved_sessions import probe_plugin, write_saved_session

GATE = """\
from pi_core import hookimpl


@hookimpl
def tool_call(event, ctx):
    if event.tool_name == "bash":
        return {"block": True, "reason": "START-FOLDER-GATE says no"}
"""
BROKEN = "import pi_dependency_that_is_not_installed\n"


def folders(cli: Cli) -> tuple[Path, Path]:
    """The start folder with a gate; another folder with a working and a broken plugin and a
    saved session. Returns the other folder and the broken plugin's file."""
    (cli.cwd / ".pi" / "extensions").mkdir(parents=True)
    (cli.cwd / ".pi" / "extensions" / "gate.py").write_text(GATE)
    there = cli.cwd.parent / "there"
    (there / ".pi" / "extensions").mkdir(parents=True)
    (there / ".pi" / "extensions" / "probe.py").write_text(probe_plugin("there"))
    broken = there / ".pi" / "extensions" / "broken.py"
    broken.write_text(BROKEN)
    return there, broken


def queue_pwd(server: FakeLLMServer) -> None:
    """The model runs `pwd` with the bash tool, then says done."""
    server.queue(chat_stream(tool_calls=[("bash", {"command": "pwd"})]), chat_stream("done"))


def test_rpc_switch_to_a_folder_whose_plugin_fails_keeps_the_session_and_its_gate(
    cli: Cli,
) -> None:
    there, broken = folders(cli)
    session = write_saved_session(cli.agent_dir, there)
    queue_pwd(cli.server)
    process = RpcProcess([console_script("pi"), "--mode", "rpc"], cli.cwd, cli.env)

    def answer(command: dict[str, object], until: str | None = None) -> dict[str, object]:
        process.send(command)
        process.read_until(lambda r: r.get("id") == command["id"])
        response = process.records[-1]
        if until is not None:
            process.read_until(lambda r: r.get("type") == until)
        return response

    before = answer({"id": "s0", "type": "get_state"})["data"]
    switched = answer({"id": "sw", "type": "switch_session", "sessionPath": str(session)})
    assert switched["success"] is False, switched
    error = str(switched["error"])
    assert f'Failed to load extension "{broken}"' in error
    assert "pi_dependency_that_is_not_installed" in error
    after = answer({"id": "s1", "type": "get_state"})["data"]
    assert isinstance(before, dict) and isinstance(after, dict)
    assert after["sessionFile"] == before["sessionFile"] != str(session)
    ran = answer({"id": "p", "type": "prompt", "message": "run pwd"}, until="agent_end")
    assert ran["success"] is True, ran
    body = cli.server.requests[1].json()
    assert f"Current working directory: {cli.cwd}" in body["messages"][0]["content"]
    assert "probe_there" not in [tool["function"]["name"] for tool in body["tools"]]
    tool_results = [m["content"] for m in body["messages"] if m["role"] == "tool"]
    assert "START-FOLDER-GATE says no" in tool_results[-1]
    assert "Traceback" not in process.close()
    assert json.loads(session.read_text().splitlines()[0])["cwd"] == str(there)


def test_pi_session_file_of_such_a_folder_stops_at_start_as_pi_does(cli: Cli) -> None:
    """At start-up the folder's plugins are the ones loaded: a failure stops pi (exit 1)."""
    there, broken = folders(cli)
    session = write_saved_session(cli.agent_dir, there)
    result = cli.run("--session", str(session), "-p", "run pwd")
    assert result.returncode == 1
    assert result.stdout == ""
    assert any(
        line.startswith(f'Error: Failed to load extension "{broken}"')
        for line in result.stderr.splitlines()
    ), result.stderr
    assert cli.server.requests == []
