"""`pi batch export`: SWE-bench predictions and ATIF trajectories from a real batch."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from batch_helpers import Fake, git_repo, records, run_batch, write_tasks
from pi_plugin_batch.atif import Trajectory

from pi_core.testing import FakeResponse, RecordedRequest, chat_stream

MODEL = ("--model", "fake/fake-model")


def _export(out: Path, *args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "pi_core", "batch", "export", str(out), *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=60)


@pytest.fixture
def batch_out(fake: Fake, tmp_path: Path) -> Path:
    """A finished batch: `fix-1` in a git worktree (a patch), `plain-2` in a plain folder (none)."""
    git_repo(tmp_path / "repo", {"README": "v1\n"})
    (tmp_path / "plain").mkdir()
    tasks = [{"id": "fix-1", "prompt": "mark fix-1", "repo": "repo"},
             {"id": "plain-2", "prompt": "mark plain-2", "workdir": "plain"}]  # fmt: skip
    out = tmp_path / "out"
    result = run_batch(fake, tmp_path, str(write_tasks(tmp_path / "t.jsonl", tasks)),
                       "-o", str(out), *MODEL)  # fmt: skip
    assert result.returncode == 0, result.stderr
    return out


def test_swebench_predictions_as_jsonl_and_as_a_list(batch_out: Path, tmp_path: Path) -> None:
    result = _export(batch_out, "--format", "swebench")
    assert result.returncode == 0, result.stderr
    lines = (batch_out / "predictions.jsonl").read_text().splitlines()
    rows = [json.loads(line) for line in lines]
    patch = {r["task_id"]: r["patch"] for r in records(batch_out)}["fix-1"]
    assert "+fix-1" in patch
    assert rows == [
        {"instance_id": "fix-1", "model_name_or_path": "fake/fake-model", "model_patch": patch},
        {"instance_id": "plain-2", "model_name_or_path": "fake/fake-model", "model_patch": ""},
    ]
    listed = tmp_path / "preds.json"
    result = _export(batch_out, "--format", "swebench", "--json-list", "--model-name", "pi-run",
                     "-o", str(listed))  # fmt: skip
    assert result.returncode == 0, result.stderr
    as_list = json.loads(listed.read_text())
    assert [r["model_name_or_path"] for r in as_list] == ["pi-run", "pi-run"]
    assert [r["model_patch"] for r in as_list] == [r["model_patch"] for r in rows]


@pytest.mark.parametrize("args", [("-o", "p.json"), ("--json-list", "-o", "p.jsonl")])
def test_a_suffix_the_harness_would_misread_is_a_usage_error(
    tmp_path: Path, args: tuple[str, ...]
) -> None:
    (tmp_path / "results.jsonl").write_text(_record("a", 1, "ok", "x") + "\n")
    result = _export(tmp_path, "--format", "swebench", *args[:-1], str(tmp_path / args[-1]))
    assert result.returncode == 3
    assert "--json-list" in result.stderr and not (tmp_path / args[-1]).exists()


def test_atif_trajectories_mirror_the_sessions(batch_out: Path) -> None:
    result = _export(batch_out, "--format", "atif")
    assert result.returncode == 0, result.stderr
    by_id = {r["task_id"]: r for r in records(batch_out)}
    assert sorted(p.name for p in (batch_out / "atif").iterdir()) == ["fix-1.json", "plain-2.json"]
    for task_id, record in by_id.items():
        data = json.loads((batch_out / "atif" / f"{task_id}.json").read_text())
        Trajectory.model_validate(data)
        header = json.loads((batch_out / record["session"]).read_text().splitlines()[0])
        assert data["session_id"] == header["id"]
        assert data["agent"]["name"] == "pi" and data["agent"]["model_name"] == "fake/fake-model"
        user, call, final = data["steps"]
        assert (user["source"], user["message"]) == ("user", f"mark {task_id}")
        (tool_call,) = call["tool_calls"]
        assert call["source"] == "agent" and tool_call["function_name"] == "bash"
        assert tool_call["arguments"] == {"command": f"printf %s {task_id} > marker.txt"}
        (observed,) = call["observation"]["results"]
        assert observed["source_call_id"] == tool_call["tool_call_id"]
        assert isinstance(observed["content"], str)
        assert (final["source"], final["message"]) == ("agent", f"done {task_id}")
        assert "tool_calls" not in final
        _assert_metrics_match(data, record)


def test_thinking_is_reasoning_content_and_text_beside_a_tool_call_is_kept(
    fake: Fake, tmp_path: Path
) -> None:
    def answer(request: RecordedRequest) -> FakeResponse:
        if any(m.get("role") == "tool" for m in request.json()["messages"]):
            return chat_stream("all done", reasoning="the file is written", usage=(30, 7))
        call = ("bash", {"command": "true"})
        return chat_stream("I will run it", reasoning="a shell is enough", tool_calls=[call])

    fake.server.route(answer)
    tasks = write_tasks(tmp_path / "t.jsonl", [{"id": "r1", "prompt": "think r1"}])
    out = tmp_path / "out"
    assert run_batch(fake, tmp_path, str(tasks), "-o", str(out), *MODEL).returncode == 0
    assert _export(out, "--format", "atif").returncode == 0
    data = json.loads((out / "atif" / "r1.json").read_text())
    _, call, final = data["steps"]
    assert (call["message"], call["reasoning_content"]) == ("I will run it", "a shell is enough")
    assert (final["message"], final["reasoning_content"]) == ("all done", "the file is written")
    assert [s["metrics"]["prompt_tokens"] for s in (call, final)] == [10, 30]
    _assert_metrics_match(data, records(out)[0])


def _assert_metrics_match(data: dict[str, Any], record: dict[str, Any]) -> None:
    usage = record["usage"]
    steps = [s["metrics"] for s in data["steps"] if "metrics" in s]
    prompt = usage["input"] + usage["cacheRead"] + usage["cacheWrite"]
    assert sum(m["prompt_tokens"] for m in steps) == prompt > 0
    assert sum(m["completion_tokens"] for m in steps) == usage["output"] > 0
    assert sum(m["cost_usd"] for m in steps) == pytest.approx(record["cost"])
    totals = data["final_metrics"]
    assert totals["total_prompt_tokens"] == prompt
    assert totals["total_completion_tokens"] == usage["output"]
    assert totals["total_cost_usd"] == pytest.approx(record["cost"])
    assert totals["total_steps"] == len(data["steps"])


def _record(task_id: str, attempt: int, status: str, patch: str, final: bool = True) -> str:
    return json.dumps({"task_id": task_id, "attempt": attempt, "status": status, "final": final,
                       "patch": patch, "model": "p/m", "session": None})  # fmt: skip


def test_the_first_ok_attempt_is_exported_and_unfinished_tasks_are_left_out(
    tmp_path: Path,
) -> None:
    out = tmp_path / "out"
    out.mkdir()
    lines = [
        _record("a", 1, "agent_error", "broken"),
        _record("a", 2, "ok", "second"),
        _record("a", 3, "ok", "third"),
        _record("b", 1, "ok", "ignored", final=False),
        _record("c", 1, "timeout", "first"),
        _record("c", 2, "idle_timeout", "last"),
    ]
    (out / "results.jsonl").write_text("\n".join(lines) + "\n")
    result = _export(out, "--format", "swebench")
    assert result.returncode == 0, result.stderr
    rows = [json.loads(line) for line in (out / "predictions.jsonl").read_text().splitlines()]
    assert [(r["instance_id"], r["model_patch"]) for r in rows] == [("a", "second"), ("c", "last")]
    assert "left out: b" in result.stderr
