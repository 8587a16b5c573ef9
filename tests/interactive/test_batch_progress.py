"""`pi batch` on a real terminal: the live line shows done/total and each running task's tool."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pi_core.testing import FakeResponse, RecordedRequest, chat_stream
from pi_core.testing.gate import PipeGate

from .conftest import Screen

pytest.importorskip("pi_plugin_batch")


def _prompt(body: dict[str, object]) -> str:
    for message in body["messages"]:  # type: ignore[attr-defined]
        if message["role"] == "user":
            content = message["content"]
            return content if isinstance(content, str) else "".join(p["text"] for p in content)
    return ""


def test_the_live_line_shows_done_total_and_the_running_tool(
    screen: Screen, tmp_path: Path
) -> None:
    gate = PipeGate(tmp_path / "gate")

    def answer(request: RecordedRequest) -> FakeResponse:
        body = request.json()
        if any(m["role"] == "tool" for m in body["messages"]):
            return chat_stream("finished")
        command = gate.shell_wait if _prompt(body) == "slow one" else "true"
        return chat_stream("", tool_calls=[("bash", {"command": command})])

    screen.server.route(answer)
    tasks = tmp_path / "tasks.jsonl"
    tasks.write_text(
        json.dumps({"id": "quick", "prompt": "quick one"})
        + "\n"
        + json.dumps({"id": "slow", "prompt": "slow one"})
        + "\n"
    )
    screen.start("batch", str(tasks), "-o", str(tmp_path / "out"), "-j", "2",
                 "--model", "fake/fake-model", width=120)  # fmt: skip

    screen.server.wait_for_requests(3)  # quick's two, and slow's first: its bash now waits

    def live(text: str) -> bool:
        return any("1/2 $" in line and "slow:bash" in line for line in text.splitlines())

    shown = screen.wait_for(live)
    assert "1/2 quick: ok" in shown  # the finished task's own line, above the live one
    gate.open()
    finished = screen.wait_for("EXIT=0")
    assert "2/2 slow: ok" in finished
