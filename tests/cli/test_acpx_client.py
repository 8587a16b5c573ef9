"""acpx (npm), a headless ACP client, drives `pi acp` end to end against the loopback fake model.

acpx runs as a subprocess and starts our agent through tests/cli/acp_tee.py, which records every
JSON-RPC message both ways. Each scenario's transcript is compared with a golden file
(tests/cli/fixtures/acpx, see acp_golden.py), and every message pi sent is validated against the
ACP schema (the SDK's models). acpx advertises `fs` and `terminal`, so pi's `write` goes through
`fs/write_text_file` and `bash` through `terminal/*`: acpx writes the file and runs the command.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from pi_core.testing import FakeLLMServer, chat_models_json, chat_stream, console_script
from tests.cli.acp_golden import check_golden, normalise, read_transcript
from tests.cli.acp_wire import invalid_agent_messages
from tests.cli.node_clients import NodeClients, node_clients

__all__ = ["node_clients"]  # the fixture, used by name

TEE = Path(__file__).with_name("acp_tee.py")
pytestmark = pytest.mark.slow

Entry = dict[str, Any]


class Acpx:
    """A project, an agent folder on the fake model, and acpx running `pi acp` through the tee."""

    def __init__(self, root: Path, fake: FakeLLMServer, clients: NodeClients) -> None:
        self.root = root
        self.fake = fake
        self.clients = clients
        self.cwd = root / "project"
        self.agent_dir = root / "agent"
        self.log = root / "transcript.jsonl"
        self.cwd.mkdir()
        self.agent_dir.mkdir(exist_ok=True)
        (self.agent_dir / "models.json").write_text(json.dumps(chat_models_json(fake.base_url)))
        (self.agent_dir / "settings.json").write_text(
            json.dumps({"defaultProvider": "fake", "defaultModel": "fake-model"})
        )
        subprocess.run(["git", "init", "-q", str(self.cwd)], check=True)
        self.env = clients.env(
            {**os.environ, "HOME": str(root), "PI_CODING_AGENT_DIR": str(self.agent_dir)}
        )
        self.log.touch()

    def argv(self, args: tuple[str, ...], hide_resume: bool) -> list[str]:
        """acpx's command line, with the tee (and `pi acp` behind it) as the agent."""
        tee = [sys.executable, str(TEE), str(self.log)]
        if hide_resume:
            tee.append("--hide-resume")
        agent = shlex.join([*tee, "--", console_script("pi"), "acp"])  # acpx splits it as a shell
        return [str(self.clients.acpx), "--agent", agent, "--cwd", str(self.cwd), *args]

    def run(self, *args: str, hide_resume: bool = False, status: int = 0) -> str:
        """Run acpx to its end; return its stdout (it must exit with `status`)."""
        done = subprocess.run(
            self.argv(args, hide_resume), env=self.env, capture_output=True, text=True,
            timeout=120,
        )  # fmt: skip
        assert done.returncode == status, f"acpx {args} failed: {done.stdout}\n{done.stderr}"
        return done.stdout

    def start(self, *args: str) -> subprocess.Popen[str]:
        """Start acpx without waiting for it."""
        return subprocess.Popen(
            self.argv(args, False), env=self.env, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True,
        )  # fmt: skip

    def transcript(self) -> list[Entry]:
        """Everything recorded so far."""
        return read_transcript(self.log)

    def wait_for(self, condition: Callable[[list[Entry]], bool], timeout: float = 60) -> None:
        """Read the recording until `condition` holds for it."""
        deadline = time.monotonic() + timeout
        while not condition(self.transcript()):
            assert time.monotonic() < deadline, f"not recorded in {timeout}s: {self.transcript()}"
            time.sleep(0.05)

    def settled(self) -> list[Entry]:
        """The transcript once every agent process acpx started has exited, normalised."""
        self.wait_for(lambda t: _events(t, "start") == _events(t, "exit"))
        transcript = self.transcript()
        assert invalid_agent_messages(transcript) == []
        return normalise(transcript, self.root)


def _events(transcript: list[Entry], name: str) -> int:
    return sum(1 for e in transcript if e["from"] == "tee" and e["event"] == name)


def sent(transcript: list[Entry], sender: str, method: str) -> list[Entry]:
    """The messages `sender` sent with this method (requests and notifications)."""
    return [
        e["message"]
        for e in transcript
        if e["from"] == sender and e["message"].get("method") == method
    ]


def updates(transcript: list[Entry], kind: str) -> list[Entry]:
    """The agent's `session/update`s of this kind."""
    return [
        m["params"]["update"]
        for m in sent(transcript, "agent", "session/update")
        if m["params"]["update"]["sessionUpdate"] == kind
    ]


@pytest.fixture
def acpx(tmp_path: Path, node_clients: NodeClients) -> Iterator[Acpx]:
    with FakeLLMServer() as fake:
        yield Acpx(tmp_path, fake, node_clients)


WRITE = ("write", {"path": "proof.txt", "content": "ran\n"})


def test_allow_runs_the_tool_through_the_clients_file_system(acpx: Acpx) -> None:
    acpx.fake.queue(chat_stream(tool_calls=[WRITE]), chat_stream("Written."))
    out = acpx.run("--approve-all", "--format", "quiet", "exec", "Write the proof")
    assert "Written." in out
    assert (acpx.cwd / "proof.txt").read_text() == "ran\n"
    transcript = acpx.settled()
    [asked] = sent(transcript, "agent", "session/request_permission")
    assert asked["params"]["toolCall"]["toolCallId"] == "<tool-1>"
    [write] = sent(transcript, "agent", "fs/write_text_file")
    assert write["params"]["path"] == "<tmp>/project/proof.txt"
    statuses = [u.get("status") for u in updates(transcript, "tool_call_update")]
    assert statuses == ["in_progress", "completed"]
    check_golden("allow", transcript)


def test_deny_does_not_run_the_tool_and_tells_the_model(acpx: Acpx) -> None:
    acpx.fake.queue(chat_stream(tool_calls=[WRITE]), chat_stream("Understood."))
    # acpx's exit status 5: a permission was denied
    out = acpx.run("--deny-all", "--format", "quiet", "exec", "Write the proof", status=5)
    assert "Understood." in out
    assert not (acpx.cwd / "proof.txt").exists()
    transcript = acpx.settled()
    assert sent(transcript, "agent", "fs/write_text_file") == []
    statuses = [u.get("status") for u in updates(transcript, "tool_call_update")]
    assert statuses == ["failed"]
    assert "denied" in json.dumps(acpx.fake.requests[1].json()["messages"][-1])
    check_golden("deny", transcript)


def test_cancel_mid_tool_kills_the_clients_terminal(acpx: Acpx) -> None:
    # `exec`: one process, so what the kill reaches does not depend on how acpx signals a shell
    slow = ("bash", {"command": "exec sleep 60"})
    acpx.fake.queue(chat_stream(tool_calls=[slow]))
    acpx.run("sessions", "new")
    prompt = acpx.start("--approve-all", "--ttl", "1", "--format", "json", "prompt", "Run it")
    # the command runs in acpx's terminal once pi waits for it to exit
    acpx.wait_for(lambda t: bool(sent(t, "agent", "terminal/wait_for_exit")))
    acpx.run("cancel")
    out, err = prompt.communicate(timeout=60)
    assert prompt.returncode == 0, err
    assert '"stopReason":"cancelled"' in out.replace(" ", "")  # acpx's own view of the answer
    transcript = acpx.settled()
    assert len(sent(transcript, "client", "session/cancel")) == 1
    assert len(sent(transcript, "agent", "terminal/kill")) == 1
    answers = [e["message"] for e in transcript if e["from"] == "agent"]
    assert {"stopReason": "cancelled"} in [a.get("result") for a in answers]
    assert updates(transcript, "tool_call_update")[-1]["status"] == "failed"
    assert len(acpx.fake.requests) == 1
    check_golden("cancel", transcript)


@pytest.mark.parametrize("method", ["load", "resume"])
def test_list_then_reopen_in_a_fresh_process(acpx: Acpx, method: str) -> None:
    """acpx reopens with `session/resume` when offered; hiding it makes acpx use `session/load`."""
    hide = method == "load"
    acpx.fake.queue(chat_stream("Noted: blue."), chat_stream("You said blue."))
    acpx.run("--format", "quiet", "exec", "Remember blue")
    listed = json.loads(acpx.run("--format", "json", "sessions", "list"))
    [session] = listed["sessions"]
    assert session["title"] == "Remember blue"
    acpx.run("sessions", "new", "--resume-session", session["sessionId"], hide_resume=hide)
    out = acpx.run("--ttl", "1", "--format", "quiet", "prompt", "Which colour?", hide_resume=hide)
    assert "You said blue." in out
    transcript = acpx.settled()
    reopened = sent(transcript, "client", f"session/{method}")
    assert len(reopened) == 2 and sent(transcript, "client", "session/new")[1:] == []
    # a load replays the conversation (each time acpx loads it), a resume does not
    users = [u["content"]["text"] for u in updates(transcript, "user_message_chunk")]
    agents = [u["content"]["text"] for u in updates(transcript, "agent_message_chunk")]
    assert users == (["Remember blue"] * 2 if hide else [])
    assert (agents.count("Noted: blue.") == 2) == hide
    history = json.dumps(acpx.fake.requests[1].json()["messages"])
    assert "Remember blue" in history and "Noted: blue." in history
    check_golden(f"list_then_{method}", transcript)
