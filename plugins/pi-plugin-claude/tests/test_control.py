"""The control protocol on the wire, without an SDK: requests both ways and cancellation."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import pytest

from pi_core.testing import FakeLLMServer

HEADLESS = ["--output-format", "stream-json", "--verbose", "--input-format", "stream-json"]


class Host:
    """pi-claude as a child process, spoken to line by line."""

    def __init__(self, pi_claude: str, *args: str) -> None:
        self.process = subprocess.Popen(
            [pi_claude, *HEADLESS, *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.seen: list[dict[str, Any]] = []

    def send(self, message: dict[str, Any]) -> None:
        stdin: IO[str] | None = self.process.stdin
        assert stdin is not None
        stdin.write(json.dumps(message) + "\n")
        stdin.flush()

    def until(self, wanted: Any) -> dict[str, Any]:
        """Read lines until one satisfies `wanted` (the process must not end first)."""
        stdout = self.process.stdout
        assert stdout is not None
        for line in stdout:
            message = json.loads(line)
            self.seen.append(message)
            if wanted(message):
                return message
        stderr = self.process.stderr.read() if self.process.stderr else ""
        raise AssertionError(f"pi-claude ended first: {stderr}")

    def response_to(self, request_id: str) -> dict[str, Any]:
        message = self.until(
            lambda m: m["type"] == "control_response" and m["response"]["request_id"] == request_id
        )
        response: dict[str, Any] = message["response"]
        return response

    def finish(self) -> int:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.stdout and self.process.stdout.read()
        return self.process.wait(timeout=60)


@pytest.fixture
def host_factory(pi_claude: str, project: Path) -> Iterator[Any]:
    hosts: list[Host] = []

    def start(*args: str) -> Host:
        hosts.append(Host(pi_claude, *args))
        return hosts[-1]

    yield start
    for host in hosts:
        if host.process.poll() is None:
            host.process.kill()
            host.process.wait()


def user(text: str) -> dict[str, Any]:
    return {"type": "user", "message": {"role": "user", "content": text}, "session_id": ""}


def test_initialize_answers_once_and_set_max_thinking_tokens(host_factory: Any) -> None:
    host = host_factory()
    host.send(
        {
            "type": "control_request",
            "request_id": "req_1",
            "request": {"subtype": "initialize", "hooks": None},
        }
    )
    first = host.response_to("req_1")
    assert first["subtype"] == "success" and "models" in first["response"]
    host.send(
        {"type": "control_request", "request_id": "req_2", "request": {"subtype": "initialize"}}
    )
    again = host.response_to("req_2")
    assert again == {"subtype": "error", "request_id": "req_2", "error": "Already initialized"}
    host.send(
        {"type": "control_request", "request_id": "req_3",
         "request": {"subtype": "set_max_thinking_tokens", "max_thinking_tokens": 0}}
    )  # fmt: skip
    assert host.response_to("req_3")["subtype"] == "success"
    host.send(
        {"type": "control_request", "request_id": "req_4", "request": {"subtype": "rewind_files"}}
    )
    unsupported = host.response_to("req_4")
    assert unsupported["subtype"] == "error" and "rewind_files" in unsupported["error"]
    assert host.finish() == 0


def test_interrupt_while_can_use_tool_waits_cancels_the_request(
    host_factory: Any, project: Path, server: FakeLLMServer, script: Any
) -> None:
    marker = project / "never.txt"
    server.queue(
        script.call("toolu_c", "Bash", {"command": f"touch {marker}"}), script.reply("after")
    )
    host = host_factory("--permission-prompt-tool", "stdio")
    host.send(
        {"type": "control_request", "request_id": "req_1", "request": {"subtype": "initialize"}}
    )
    host.response_to("req_1")
    host.send(user("touch it"))
    asked = host.until(lambda m: m["type"] == "control_request")
    assert asked["request"]["subtype"] == "can_use_tool"
    assert asked["request"]["tool_use_id"] == "toolu_c"
    host.send(
        {"type": "control_request", "request_id": "req_2", "request": {"subtype": "interrupt"}}
    )
    cancel = host.until(lambda m: m["type"] == "control_cancel_request")
    assert cancel["request_id"] == asked["request_id"]
    result = host.until(lambda m: m["type"] == "result")
    assert result["subtype"] == "error_during_execution" and result["is_error"] is True
    answered = [m for m in host.seen if m["type"] == "control_response"]
    assert answered[-1]["response"]["request_id"] == "req_2"  # answered before the result
    assert not marker.exists()
    host.send(user("again"))
    second = host.until(lambda m: m["type"] == "result")
    assert (second["subtype"], second["result"]) == ("success", "after")
    assert host.finish() == 0


def test_plan_mode_sends_writes_and_the_plan_to_the_host(
    host_factory: Any, project: Path, server: FakeLLMServer, script: Any
) -> None:
    target = project / "out.txt"
    write = {"file_path": str(target), "content": "x"}
    server.queue(
        script.call("toolu_w", "Write", write),
        script.call("toolu_p", "ExitPlanMode", {"plan": "1. write out.txt"}),
        script.reply("planned"),
    )
    host = host_factory("--permission-prompt-tool", "stdio", "--permission-mode", "plan")
    host.send(
        {"type": "control_request", "request_id": "req_1", "request": {"subtype": "initialize"}}
    )
    host.response_to("req_1")
    host.send(user("plan it"))
    asked = host.until(lambda m: m["type"] == "control_request")["request"]
    assert (asked["subtype"], asked["tool_name"]) == ("can_use_tool", "Write")
    assert asked["decision_reason_type"] == "mode" and asked["input"] == write
    host.send(
        {"type": "control_response", "response": {"subtype": "success",
         "request_id": host.seen[-1]["request_id"],
         "response": {"behavior": "deny", "message": "Still planning"}}}
    )  # fmt: skip
    plan = host.until(lambda m: m["type"] == "control_request")
    assert plan["request"]["tool_name"] == "ExitPlanMode"
    assert plan["request"]["input"] == {"plan": "1. write out.txt"}
    assert plan["request"]["requires_user_interaction"] is True
    host.send(
        {"type": "control_response", "response": {"subtype": "success",
         "request_id": plan["request_id"],
         "response": {"behavior": "allow", "updatedInput": plan["request"]["input"]}}}
    )  # fmt: skip
    result = host.until(lambda m: m["type"] == "result")
    assert result["result"] == "planned"
    assert [d["tool_name"] for d in result["permission_denials"]] == ["Write"]
    sent = server.requests[1].json()["messages"][-1]["content"]
    results = [b["content"] for b in sent if b.get("type") == "tool_result"]
    assert results == ["Still planning"]  # a text-only tool result is one string, as pi sends it
    assert not target.exists()
    assert host.finish() == 0


def test_session_end_at_eof_runs_settings_hooks_and_asks_the_closed_host_nothing(
    host_factory: Any, project: Path, server: FakeLLMServer, script: Any
) -> None:
    # Claude Code 2.1.197 does the same: its SessionEnd hook_callback fails with "Stream closed"
    # (stdin is gone, so the host could not answer) and nothing is written for it.
    log = project / "session-end.json"
    hooks = {"SessionEnd": [{"hooks": [{"type": "command", "command": f"cat > {log}"}]}]}
    (project / ".claude").mkdir()
    (project / ".claude" / "settings.json").write_text(json.dumps({"hooks": hooks}))
    server.queue(script.reply("hello"))
    host = host_factory()
    callbacks = {
        e: [{"matcher": None, "hookCallbackIds": [f"hook_{e}"]}] for e in ("Stop", "SessionEnd")
    }
    host.send(
        {"type": "control_request", "request_id": "req_1",
         "request": {"subtype": "initialize", "hooks": callbacks}}
    )  # fmt: skip
    host.response_to("req_1")
    host.send(user("hi"))
    stop = host.until(lambda m: m["type"] == "control_request")
    assert stop["request"]["input"]["hook_event_name"] == "Stop"
    host.send(
        {"type": "control_response", "response": {"subtype": "success",
         "request_id": stop["request_id"], "response": {}}}
    )  # fmt: skip
    host.until(lambda m: m["type"] == "result")
    assert host.process.stdin is not None and host.process.stdout is not None
    host.process.stdin.close()
    after = [json.loads(line) for line in host.process.stdout]
    assert host.process.wait(timeout=60) == 0
    assert [m for m in after if m["type"] == "control_request"] == []
    stderr = host.process.stderr.read() if host.process.stderr else ""
    assert "Traceback" not in stderr
    ended = json.loads(log.read_text())
    assert (ended["hook_event_name"], ended["reason"]) == ("SessionEnd", "other")
