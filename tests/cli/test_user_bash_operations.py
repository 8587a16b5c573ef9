"""The user's shell commands (`!cmd`, RPC `bash`) run on the session's bash operations, after
the spawn hook, as the bash tool's commands do: a plugin that runs tools elsewhere runs them too."""

from __future__ import annotations

from pathlib import Path

from pi_core.testing import console_script
from tests.cli.conftest import Cli
from tests.cli.rpc_script import RpcProcess

PLUGIN = Path(__file__).with_name("memory_tool_operations.py")


def test_an_rpc_bash_command_runs_on_the_plugins_bash_operations(cli: Cli) -> None:
    process = RpcProcess(
        [console_script("pi"), "--mode", "rpc", "--no-session", "-e", str(PLUGIN)], cli.cwd, cli.env
    )
    try:
        process.send({"id": "b", "type": "bash", "command": "touch made-by-user"})
        process.read_until(lambda r: r.get("type") == "response" and r.get("id") == "b")
        response = process.records[-1]
    finally:
        stderr = process.close()

    assert response["success"], (response, stderr)
    output = response["data"]["output"]
    assert f"scripted: touch made-by-user in {cli.cwd.resolve()}" in output
    assert "mark=hooked" in output  # the spawn hook ran too
    assert response["data"]["exitCode"] == 0
    assert not (cli.cwd / "made-by-user").exists()  # nothing ran on this machine
