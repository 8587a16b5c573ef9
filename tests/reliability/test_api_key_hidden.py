"""`--api-key`'s value never shows in the process's command line (`ps`, /proc/PID/cmdline) nor in
its environment, so a tool reading its parent's /proc entries cannot put it in the session."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

from pi_core.testing import chat_stream
from tests.cli.conftest import Cli
from tests.cli.rpc_script import RpcProcess

Start = Callable[..., RpcProcess]
SECRET = "sk-hidden-4242-secret"
PEEK = "tr '\\0' ' ' < /proc/$PPID/cmdline; echo; tr '\\0' '\\n' < /proc/$PPID/environ"


def test_the_api_key_is_off_the_command_line_and_still_used(cli: Cli, rpc: Start) -> None:
    cli.server.queue(chat_stream(tool_calls=[("bash", {"command": PEEK})]), chat_stream("seen"))
    process = rpc("--api-key", SECRET)
    process.send({"id": "s", "type": "get_state"})
    process.read_until(lambda r: r.get("type") == "response" and r.get("id") == "s")
    pid = process.process.pid

    cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
    assert b"--mode" in cmdline and SECRET.encode() not in cmdline
    assert SECRET.encode() not in Path(f"/proc/{pid}/environ").read_bytes()
    ps = subprocess.run(["ps", "-o", "args=", "-p", str(pid)], capture_output=True, text=True)
    assert "--mode" in ps.stdout and SECRET not in ps.stdout

    process.send({"id": "p", "type": "prompt", "message": "look around"})
    process.read_until(lambda r: r.get("type") == "agent_end")
    (result,) = [r for r in process.records if r.get("type") == "tool_execution_end"]
    seen = result["result"]["content"][0]["text"]
    assert "--mode rpc" in seen  # the tool did read pi's own command line
    assert SECRET not in seen
    assert cli.server.requests[0].headers.get("authorization") == f"Bearer {SECRET}"
    assert SECRET not in cli.server.requests[1].body.decode()
    process.close()
    assert SECRET not in json.dumps(process.records)
    for session in cli.sessions():
        assert SECRET not in session.read_text()
