"""A task's `env` and `plugins` take effect in its session, end to end through `pi batch`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from batch_helpers import Fake, records, run_batch, write_tasks
from pi_plugin_batch import rollout

from pi_core.testing import FakeResponse, RecordedRequest, chat_stream

MODEL = "fake/fake-model"
PLUGIN = """
from pi_core import hookimpl


@hookimpl
def before_provider_request(event, ctx):
    return {**event.payload, "user": "set-by-the-task-plugin"}
"""


def _echo_router(command: str, seen: list[dict[str, Any]]) -> Any:
    """First `bash COMMAND`, then `got <the tool's output>`."""

    def answer(request: RecordedRequest) -> FakeResponse:
        body = request.json()
        seen.append(body)
        results = [m for m in body["messages"] if m.get("role") == "tool"]
        if results:
            return chat_stream(f"got {results[-1]['content']}")
        return chat_stream("", tool_calls=[("bash", {"command": command})])

    return answer


def test_a_task_env_reaches_its_session(fake: Fake, tmp_path: Path) -> None:
    fake.server.route(_echo_router('printf %s "$BATCH_X"', []))
    tasks = write_tasks(tmp_path / "tasks.jsonl", [
        {"id": "e1", "prompt": "show e1", "env": {"BATCH_X": "value-of-e1"}},
        {"id": "e2", "prompt": "show e2", "env": {"BATCH_X": "value-of-e2"}},
    ])  # fmt: skip

    done = run_batch(fake, tmp_path, str(tasks), "-o", str(tmp_path / "out"), "--model", MODEL)

    assert done.returncode == 0, done.stderr
    texts = {r["task_id"]: r["final_text"] for r in records(tmp_path / "out")}
    assert texts == {"e1": "got value-of-e1", "e2": "got value-of-e2"}


def test_a_task_plugins_are_loaded_in_its_session_only(fake: Fake, tmp_path: Path) -> None:
    seen: list[dict[str, Any]] = []
    fake.server.route(_echo_router("true", seen))
    (tmp_path / "plugins").mkdir()
    (tmp_path / "plugins" / "mark.py").write_text(PLUGIN)
    tasks = write_tasks(tmp_path / "tasks.jsonl", [
        {"id": "with", "prompt": "with it", "plugins": ["plugins/mark.py"]},
        {"id": "without", "prompt": "without it"},
    ])  # fmt: skip

    done = run_batch(fake, tmp_path, str(tasks), "-o", str(tmp_path / "out"), "--model", MODEL)

    assert done.returncode == 0, done.stderr
    marked = {_prompt(body): body.get("user") for body in seen}
    assert marked == {"with it": "set-by-the-task-plugin", "without it": None}


async def test_a_rollout_loads_the_task_plugins(fake: Fake, tmp_path: Path) -> None:
    seen: list[dict[str, Any]] = []
    fake.server.route(_echo_router("true", seen))
    (tmp_path / "mark.py").write_text(PLUGIN)
    task = {"id": "r1", "prompt": "with it", "plugins": ["mark.py"]}

    result = await rollout(task, out=tmp_path / "out", task_base=tmp_path,
                           agent_dir=fake.agent_dir, model=MODEL)  # fmt: skip

    assert result.record["status"] == "ok"
    assert [body.get("user") for body in seen] == ["set-by-the-task-plugin"] * 2


def _prompt(body: dict[str, Any]) -> str:
    user = next(m for m in body["messages"] if m["role"] == "user")
    content = user["content"]
    return content if isinstance(content, str) else "".join(p["text"] for p in content)
