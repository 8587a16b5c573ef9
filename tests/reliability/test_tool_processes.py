"""A tool's processes die with the agent, even when the agent is killed with SIGKILL."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable
from pathlib import Path

from pi_core.testing import chat_stream
from tests.cli.conftest import Cli
from tests.cli.rpc_script import RpcProcess


def alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rfind(")") + 2] != "Z"


def wait_for(condition: Callable[[], object], what: str, timeout: float = 20) -> None:
    """Poll a condition on the system (a file, a process) with a bounded wait."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


def test_bash_children_die_when_the_agent_is_killed(
    cli: Cli, rpc: Callable[..., RpcProcess]
) -> None:
    pid_file = cli.cwd / "child.pid"
    command = "sleep 300 & echo $! > child.pid; sleep 300"
    cli.server.queue(chat_stream(tool_calls=[("bash", {"command": command})]))
    process = rpc("--no-session")
    process.send({"id": "p", "type": "prompt", "message": "run it"})
    process.read_until(lambda r: r.get("type") == "tool_execution_start")
    wait_for(lambda: pid_file.exists() and pid_file.read_text().strip(), "the child's pid")
    child = int(pid_file.read_text())
    assert alive(child)

    os.kill(process.process.pid, signal.SIGKILL)
    process.process.wait(timeout=10)

    wait_for(lambda: not alive(child), f"the tool's child {child} to die with the agent")
