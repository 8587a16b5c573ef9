"""The SDK examples in docs/examples/sdk run as scripts against the fake server."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from pi_core.testing import FakeLLMServer, chat_models_json, chat_stream

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples" / "sdk"


def run_example(
    name: str, agent_dir: Path, cwd: Path, *args: str
) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PI_CODING_AGENT_DIR": str(agent_dir), "HOME": str(agent_dir.parent)}
    return subprocess.run(
        [sys.executable, str(EXAMPLES / name), *args],
        cwd=cwd, env=env, capture_output=True, text=True, timeout=60,
    )  # fmt: skip


def setup(server: FakeLLMServer, agent_dir: Path) -> None:
    (agent_dir / "models.json").write_text(json.dumps(chat_models_json(server.base_url)))
    settings = {"defaultProvider": "fake", "defaultModel": "fake-model"}
    (agent_dir / "settings.json").write_text(json.dumps(settings))


def test_basic_example_streams_the_answer_and_uses_read_only_tools(
    tmp_path: Path, isolated_agent_dir: Path
) -> None:
    (tmp_path / "hello.txt").write_text("hi")
    with FakeLLMServer() as server:
        setup(server, isolated_agent_dir)
        server.queue(chat_stream(tool_calls=[("ls", {})]), chat_stream("There is hello.txt."))
        result = run_example("basic.py", isolated_agent_dir, tmp_path, "What is here?")
        tools = [t["function"]["name"] for t in server.requests[0].json()["tools"]]
    assert result.returncode == 0, result.stderr
    assert "[ls {}]" in result.stdout and "There is hello.txt." in result.stdout
    assert "30 tokens" in result.stdout
    assert tools == ["read", "grep", "find", "ls"]
    assert not list(isolated_agent_dir.glob("sessions/**/*.jsonl"))  # in-memory session


def test_custom_tool_example_runs_its_tool(tmp_path: Path, isolated_agent_dir: Path) -> None:
    with FakeLLMServer() as server:
        setup(server, isolated_agent_dir)
        server.queue(
            chat_stream(tool_calls=[("weather", {"city": "Lisbon"})]), chat_stream("It is sunny.")
        )
        result = run_example("custom_tool.py", isolated_agent_dir, tmp_path)
        second = server.requests[1].json()
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "It is sunny."
    assert "Sunny in Lisbon" in json.dumps(second["messages"][-1])
