"""Helpers for the batch tests: a loopback fake model that answers from the request content."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from pi_core.testing import (
    FakeLLMServer,
    FakeResponse,
    RecordedRequest,
    chat_error,
    chat_models_json,
    chat_stream,
)

# $ per million tokens: each fake response (10 in, 5 out) costs $0.015.
COST = {"input": 1000, "output": 1000, "cacheRead": 0, "cacheWrite": 0}


def _prompt(body: dict[str, Any]) -> str:
    for message in body.get("messages", []):
        if message.get("role") == "user":
            content = message.get("content")
            if isinstance(content, list):
                return "".join(part.get("text", "") for part in content)
            return str(content)
    return ""


@dataclass
class Fake:
    """The fake model: prompts `<verb> <id>`; it asks for `bash` to write `marker.txt`."""

    server: FakeLLMServer
    agent_dir: Path
    hang: set[str] = field(default_factory=set)  # ids whose first answer never finishes
    flaky: dict[str, int] = field(default_factory=dict)  # id -> 503s still to send
    log: list[str] = field(default_factory=list)  # "<id>:<first|final>" per request
    hanging: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def answer(self, request: RecordedRequest) -> FakeResponse | None:
        """Answer by the task id in the prompt, so any concurrency gives the same results."""
        body = request.json()
        verb, _, task_id = _prompt(body).partition(" ")
        finished = any(m.get("role") == "tool" for m in body.get("messages", []))
        with self.lock:
            self.log.append(f"{task_id}:{'final' if finished else 'first'}")
            if self.flaky.get(task_id, 0) > 0:
                self.flaky[task_id] -= 1
                return chat_error(503, "overloaded")
        if verb == "auth":
            return chat_error(401, "invalid api key", "invalid_api_key")
        if task_id in self.hang and not finished:
            self.hanging.set()
            return chat_stream("thinking", pause_after_chunks=1)
        if finished:
            return chat_stream(f"done {task_id}")
        command = f"printf %s {task_id} > marker.txt"
        return chat_stream("", tool_calls=[("bash", {"command": command})])

    def requests_for(self, task_id: str) -> int:
        """How many requests the fake saw for one task."""
        return Counter(entry.split(":")[0] for entry in self.log)[task_id]


@pytest.fixture
def fake(tmp_path: Path) -> Iterator[Fake]:
    """The fake model on 127.0.0.1 with an agent folder whose models.json points at it."""
    server = FakeLLMServer().start()
    agent = tmp_path / "agent"
    agent.mkdir()
    models = chat_models_json(server.base_url, cost=COST)
    (agent / "models.json").write_text(json.dumps(models))
    result = Fake(server, agent)
    server.route(result.answer)
    yield result
    server.stop()


def write_tasks(path: Path, tasks: list[dict[str, Any]]) -> Path:
    """Write a task file."""
    path.write_text("".join(json.dumps(task) + "\n" for task in tasks))
    return path


def batch_env(fake: Fake, home: Path) -> dict[str, str]:
    """The environment of a `pi batch` run: the fake's agent folder, a fresh HOME."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PI_")}
    env.update(PI_CODING_AGENT_DIR=str(fake.agent_dir), HOME=str(home), PI_OFFLINE="1")
    return env


def pi_batch_command(*args: str) -> list[str]:
    """`pi batch …` with this interpreter."""
    return [sys.executable, "-m", "pi_core", "batch", *args]


def run_batch(
    fake: Fake, home: Path, *args: str, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    """Run `pi batch ARGS` to its end."""
    return subprocess.run(
        pi_batch_command(*args), env=batch_env(fake, home), capture_output=True, text=True,
        timeout=timeout, cwd=home,
    )  # fmt: skip


def records(out: Path) -> list[dict[str, Any]]:
    """The lines of results.jsonl."""
    return [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]


def git_repo(
    repo: Path, files: dict[str, str], *, tag: str | None = None, then: dict[str, str] | None = None
) -> None:
    """Make a git repository at `repo` whose first commit holds `files`, tagged `tag` if given;
    with `then`, a second commit writes those files over."""
    repo.mkdir()
    for args in (["init", "-q"], ["config", "user.email", "t@t"], ["config", "user.name", "t"]):
        subprocess.run(["git", *args], cwd=repo, check=True)
    for commit, contents in enumerate((files, then or {})):
        if not contents:
            continue
        for name, text in contents.items():
            (repo / name).write_text(text)
        subprocess.run(["git", "add", "-A"], cwd=repo, check=True)
        subprocess.run(["git", "commit", "-qm", f"v{commit + 1}"], cwd=repo, check=True)
        if commit == 0 and tag is not None:
            subprocess.run(["git", "tag", tag], cwd=repo, check=True)
