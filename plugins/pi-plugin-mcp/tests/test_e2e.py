"""The real `pi` command with MCP servers, against the loopback fake LLM server."""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from queue import Queue
from typing import Any

import pytest

from pi_core.testing import FakeLLMServer, chat_models_json, chat_stream, console_script

pytestmark = pytest.mark.slow

DEMO = Path(__file__).parent / "servers" / "demo_server.py"


class Project:
    """A project folder with `.mcp.json`, an isolated agent dir, and the fake LLM server."""

    def __init__(self, root: Path, server: FakeLLMServer) -> None:
        self.server = server
        self.cwd = root / "project"
        self.agent_dir = root / "agent"
        self.cwd.mkdir()
        self.agent_dir.mkdir()
        (self.agent_dir / "models.json").write_text(json.dumps(chat_models_json(server.base_url)))
        (self.agent_dir / "settings.json").write_text(
            json.dumps({"defaultProvider": "fake", "defaultModel": "fake-model"})
        )
        self.env = {**os.environ, "HOME": str(root), "PI_CODING_AGENT_DIR": str(self.agent_dir),
                    "MCP_CONNECT_TIMEOUT_MS": "60000"}  # fmt: skip

    def servers(self, **servers: dict[str, Any]) -> None:
        """Write `.mcp.json`."""
        (self.cwd / ".mcp.json").write_text(json.dumps({"mcpServers": servers}))

    def pi(self, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
        """Run `pi args…` to completion."""
        pi = console_script("pi")
        return subprocess.run(
            [pi, *args], cwd=self.cwd, env=self.env, capture_output=True, text=True,
            timeout=timeout, stdin=subprocess.DEVNULL,
        )  # fmt: skip


@pytest.fixture
def project(tmp_path: Path) -> Iterator[Project]:
    with FakeLLMServer() as server:
        yield Project(tmp_path, server)


def demo(*flags: str, **entry: Any) -> dict[str, Any]:
    return {"command": sys.executable, "args": [str(DEMO), "stdio", *flags], **entry}


def test_the_agent_calls_an_mcp_tool_and_the_result_reaches_the_next_request(
    project: Project,
) -> None:
    project.servers(demo=demo())
    project.server.queue(
        chat_stream(tool_calls=[("mcp__demo__echo", {"text": "from the model"})]),
        chat_stream("The server echoed it."),
    )
    result = project.pi("--no-session", "-p", "Echo something")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "The server echoed it."

    first, second = (request.json() for request in project.server.requests)
    tools = {tool["function"]["name"]: tool["function"] for tool in first["tools"]}
    assert tools["mcp__demo__echo"]["description"] == "Return the text unchanged."
    assert tools["mcp__demo__echo"]["parameters"]["required"] == ["text"]
    tool_messages = [m for m in second["messages"] if m["role"] == "tool"]
    assert len(tool_messages) == 1
    assert "echo: from the model" in json.dumps(tool_messages[0]["content"])


def test_a_broken_server_is_reported_and_the_session_carries_on(project: Project) -> None:
    project.servers(ghost={"command": "no-such-mcp-server-command"}, demo=demo())
    project.server.queue(
        chat_stream(tool_calls=[("mcp__demo__crash", {})]),
        chat_stream("It crashed; carrying on."),
    )
    result = project.pi("--no-session", "-p", "Crash the server")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "It crashed; carrying on."
    assert (
        "error: MCP server 'ghost' failed: command not found: no-such-mcp-server-command"
        in result.stderr
    )
    assert result.stderr.count("MCP server 'demo' failed: the server exited") == 1
    tool_result = [m for m in project.server.requests[1].json()["messages"] if m["role"] == "tool"]
    assert "'demo' stopped during the call" in json.dumps(tool_result)


class Rpc:
    """`pi --mode rpc` with its stdout records read on a thread."""

    def __init__(self, project: Project) -> None:
        pi = console_script("pi")
        self.process = subprocess.Popen(
            [pi, "--mode", "rpc", "--no-session"], cwd=project.cwd, env=project.env,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        )  # fmt: skip
        self.records: Queue[dict[str, Any] | None] = Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.records.put(json.loads(line))
        self.records.put(None)

    def send(self, command: dict[str, Any]) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(command) + "\n")
        self.process.stdin.flush()

    def wait_for(self, **fields: Any) -> dict[str, Any]:
        while True:
            record = self.records.get(timeout=120)
            assert record is not None, "pi closed stdout"
            if all(record.get(k) == v for k, v in fields.items()):
                return record

    def mcp_listing_once_started(self, server: str) -> str:
        """Ask `/mcp` until `server` is no longer starting; return that listing."""
        while True:
            self.send({"id": "mcp", "type": "prompt", "message": "/mcp"})
            listing = ""
            while f"{server}  [" not in listing:
                listing = str(self.wait_for(method="notify").get("message", ""))
            if f"{server}  [starting]" not in listing:
                return listing


def test_slash_mcp_lists_servers_and_their_tools_over_rpc(project: Project) -> None:
    project.servers(demo=demo(), ghost={"command": "no-such-mcp-server-command"})
    rpc = Rpc(project)
    try:
        failure = rpc.wait_for(method="notify")  # reported once, at session start
        assert failure["notifyType"] == "error"
        assert failure["message"] == (
            "MCP server 'ghost' failed: command not found: no-such-mcp-server-command"
        )
        listing = rpc.mcp_listing_once_started("demo")
        assert "demo  [connected]" in listing
        assert "mcp__demo__echo" in listing
        assert "ghost  [failed]  no-such-mcp-server-command" in listing
    finally:
        rpc.process.kill()
        rpc.process.wait()


def test_mcp_prompts_are_typed_like_prompt_templates(project: Project) -> None:
    project.servers(demo=demo())
    project.server.queue(chat_stream("Looks fine."))
    result = project.pi("--no-session", "-p", "/mcp__demo__review 'x = 1' rust")
    assert result.returncode == 0, result.stderr
    (request,) = project.server.requests
    user = [m for m in request.json()["messages"] if m["role"] == "user"]
    assert "Please review this rust code:\nx = 1" in json.dumps(user[-1]["content"])[1:-1].replace(
        "\\n", "\n"
    )


def test_servers_do_not_outlive_a_killed_pi(project: Project, tmp_path: Path) -> None:
    pidfile = tmp_path / "server.pid"
    project.servers(demo=demo(env={"MCP_DEMO_PIDFILE": str(pidfile)}))
    rpc = Rpc(project)
    rpc.mcp_listing_once_started("demo")  # servers connect in the background
    server_pid = int(pidfile.read_text())
    watch = os.pidfd_open(server_pid)
    try:
        rpc.process.send_signal(signal.SIGKILL)
        rpc.process.wait()
        # the server reads EOF on stdin once pi is gone, and exits: its pidfd turns readable
        readable, _, _ = select.select([watch], [], [], 60)
        assert readable == [watch], "the MCP server outlived pi"
    finally:
        os.close(watch)


FAULTY = Path(__file__).parent / "servers" / "faulty_server.py"


def test_a_huge_result_reaches_neither_the_model_nor_the_session_whole(
    project: Project, tmp_path: Path
) -> None:
    # 10 MB, not the 50 MB of the report: the SDK's stdio reader takes time quadratic in the
    # length of a line, and a 50 MB result (sent twice, as text and structured) takes minutes
    saved_in = tmp_path / "tmp"
    saved_in.mkdir()
    project.env["TMPDIR"] = str(saved_in)
    huge = {"FAULTY_HUGE_CHARS": str(10 * 1024 * 1024)}
    project.servers(faulty={"command": sys.executable, "args": [str(FAULTY)], "env": huge})
    project.server.queue(
        chat_stream(tool_calls=[("mcp__faulty__huge", {})]),
        chat_stream("Too big; I will read the file in parts."),
    )
    result = project.pi("-p", "Get the huge output")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "Too big; I will read the file in parts."

    second = project.server.requests[1]
    assert len(second.body) < 100_000
    (tool_message,) = [m for m in second.json()["messages"] if m["role"] == "tool"]
    notice = json.dumps(tool_message["content"])
    assert "the result (10,485,760 characters in 161,320 lines) is larger than the MCP" in notice
    assert "output limit of 25,000 tokens. Output too large for the context" in notice
    (saved,) = saved_in.glob("pi-mcp-faulty-huge-*.txt")
    assert f"the full output is saved in {saved} (plain text)" in notice
    assert saved.stat().st_size == 10 * 1024 * 1024
    with saved.open() as file:
        assert file.readline() == "line 000000000 " + "x" * 49 + "\n"

    (session,) = project.agent_dir.glob("sessions/**/*.jsonl")
    assert session.stat().st_size < 100_000
    assert str(saved) in session.read_text()


def test_a_server_that_never_answers_does_not_hold_up_the_session(project: Project) -> None:
    never = {"command": sys.executable, "args": ["-c", "import sys; sys.stdin.read()"]}
    project.servers(never={**never, "startupTimeout": 60_000}, demo=demo())
    project.server.queue(
        chat_stream(tool_calls=[("mcp__demo__echo", {"text": "still here"})]),
        chat_stream("Done."),
    )
    rpc = Rpc(project)
    try:
        rpc.send({"id": "s", "type": "get_state"})
        while True:  # well before the 60 s the silent server may take
            record = rpc.records.get(timeout=10)
            assert record is not None, "pi closed stdout"
            if record.get("type") == "response" and record.get("id") == "s":
                break
        assert record["success"] is True
        assert "never  [starting]" in rpc.mcp_listing_once_started("demo")
        rpc.send({"id": "p", "type": "prompt", "message": "Echo something"})
        rpc.wait_for(type="agent_end")
        second = project.server.requests[1].json()
        tool_messages = [m for m in second["messages"] if m["role"] == "tool"]
        assert "echo: still here" in json.dumps(tool_messages)
    finally:
        rpc.process.kill()
        rpc.process.wait()


def test_print_mode_waits_for_a_silent_server_only_a_moment(project: Project) -> None:
    never = {"command": sys.executable, "args": ["-c", "import sys; sys.stdin.read()"]}
    project.servers(never={**never, "startupTimeout": 60_000}, demo=demo())
    project.server.queue(chat_stream("Answered."))
    project.env["MCP_CONNECT_TIMEOUT_MS"] = "2000"
    result = project.pi("--no-session", "-p", "Hello", timeout=20)  # the server may take 60 s
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "Answered."


def test_print_mode_goes_ahead_without_a_silent_server_when_told_not_to_wait(
    project: Project,
) -> None:
    never = {"command": sys.executable, "args": ["-c", "import sys; sys.stdin.read()"]}
    project.servers(never={**never, "startupTimeout": 60_000})
    project.server.queue(chat_stream("Answered."))
    project.env["MCP_CONNECTION_NONBLOCKING"] = "1"
    result = project.pi("--no-session", "-p", "Hello", timeout=20)  # the server may take 60 s
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "Answered."
