"""`pi batch` end to end: real pi children against a fake model that answers from the prompt."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from batch_helpers import Fake, batch_env, git_repo, records, run_batch, write_tasks

from pi_core import SessionManager

MODEL = ("--model", "fake/fake-model")


def _mark_tasks(tmp_path: Path, ids: list[str], **extra: object) -> Path:
    (tmp_path / "src").mkdir(exist_ok=True)
    (tmp_path / "src" / "README").write_text("a project\n")
    tasks = [{"id": i, "prompt": f"mark {i}", "workdir": "src", **extra} for i in ids]
    return write_tasks(tmp_path / "tasks.jsonl", tasks)


@pytest.mark.slow
def test_a_hundred_tasks_eight_at_a_time(fake: Fake, tmp_path: Path) -> None:
    ids = [f"t{n:03d}" for n in range(100)]
    tasks = _mark_tasks(tmp_path, ids, metadata={"suite": "demo"})
    out = tmp_path / "out"
    result = run_batch(fake, tmp_path, str(tasks), "-o", str(out), "-j", "8", *MODEL,
                       "--keep-work", timeout=300)  # fmt: skip
    assert result.returncode == 0, result.stderr
    lines = records(out)
    assert sorted(r["task_id"] for r in lines) == ids
    assert all(r["final"] and r["status"] == "ok" for r in lines)
    for record in lines:
        task_id = record["task_id"]
        assert (out / "work" / task_id / "marker.txt").read_text() == task_id
        assert record["final_text"] == f"done {task_id}"
        assert record["tool_calls"] == 1 and record["turns"] == 2
        assert record["cost"] == pytest.approx(0.03)
        session = SessionManager.open(out / record["session"])
        entries = session.get_raw_entries()
        (task_entry,) = [e for e in entries if e.get("customType") == "batch_task"]
        assert task_entry["data"]["id"] == task_id
        assert task_entry["data"]["metadata"] == {"suite": "demo"}
        assert len(session.build_session_context().messages) == 4
    assert not (tmp_path / "src" / "marker.txt").exists()  # each ran in its own copy
    frozen = json.loads((out / "batch.json").read_text())
    assert frozen["tasks_sha256"] and frozen["models_sha256"]
    assert frozen["args"]["jobs"] == 8 and frozen["versions"]["pi-harness"]


def test_a_repo_task_runs_in_a_worktree_at_ref_and_records_its_patch(
    fake: Fake, tmp_path: Path
) -> None:
    repo = tmp_path / "repo"
    git_repo(repo, {"README": "v1\n"}, tag="v1", then={"README": "v2\n"})
    task = {"id": "w1", "prompt": "mark w1", "repo": "repo", "ref": "v1"}
    tasks = write_tasks(tmp_path / "t.jsonl", [task])
    out = tmp_path / "out"
    result = run_batch(fake, tmp_path, str(tasks), "-o", str(out), *MODEL)
    assert result.returncode == 0, result.stderr
    (record,) = records(out)
    assert "+w1" in record["patch"] and "marker.txt" in record["patch"]
    assert (out / "artifacts" / "w1" / "patch.diff").read_text() == record["patch"]
    assert (out / "artifacts" / "w1" / "stderr.txt").exists()
    assert not (repo / "marker.txt").exists()
    assert _worktrees(repo) == 1  # the attempt's worktree is gone
    session = SessionManager.open(out / record["session"])
    (entry,) = [e for e in session.get_raw_entries() if e.get("customType") == "batch_task"]
    assert (entry["data"]["repo"], entry["data"]["ref"]) == ("repo", "v1")
    before = len(fake.server.requests)
    # the attempt's folder is gone, so pi refuses `--session` there; a fork goes on here
    again = subprocess.run(
        [*_pi(), "-p", "--fork", str(out / record["session"]), *MODEL, "mark w1 again"],
        env=batch_env(fake, tmp_path), cwd=tmp_path, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert again.returncode == 0, again.stderr
    continued = fake.server.requests[before].json()["messages"]
    assert [m["role"] for m in continued][-5:] == ["user", "assistant", "tool", "assistant", "user"]


def test_a_503_is_retried_and_the_retry_succeeds(fake: Fake, tmp_path: Path) -> None:
    fake.flaky["f1"] = 1
    tasks = _mark_tasks(tmp_path, ["f1"])
    out = tmp_path / "out"
    result = run_batch(fake, tmp_path, str(tasks), "-o", str(out), *MODEL, "--backoff", "0.01")
    assert result.returncode == 0, result.stderr
    first, second = records(out)
    assert (first["final"], first["error_class"], first["try"]) == (False, "transient", 0)
    assert (first["session"], second["session"]) == (None, "sessions/f1.jsonl")
    assert (second["final"], second["status"], second["try"]) == (True, "ok", 1)
    assert fake.log.count("f1:first") == 2
    assert "0/1 f1: error (transient) — will retry" in result.stderr
    assert "1/1 f1: ok $0.0300" in result.stderr


def test_an_auth_error_stops_the_batch_with_exit_2(fake: Fake, tmp_path: Path) -> None:
    tasks = write_tasks(tmp_path / "t.jsonl", [{"id": "a1", "prompt": "auth a1"}])
    out = tmp_path / "out"
    result = run_batch(fake, tmp_path, str(tasks), "-o", str(out), *MODEL)
    assert result.returncode == 2, result.stderr
    assert "batch stopped" in result.stderr
    (record,) = records(out)
    assert (record["final"], record["error_class"]) == (False, "auth")


def test_an_unknown_model_stops_the_batch(fake: Fake, tmp_path: Path) -> None:
    tasks = _mark_tasks(tmp_path, ["m1"])
    out = tmp_path / "out"
    result = run_batch(fake, tmp_path, str(tasks), "-o", str(out), "--model", "fake/nope")
    assert result.returncode == 2, result.stderr
    (record,) = records(out)
    assert record["error_class"] == "unknown_model" and fake.server.requests == []


def test_a_hang_hits_the_idle_timeout_and_is_a_final_failure(fake: Fake, tmp_path: Path) -> None:
    fake.hang.add("h1")
    tasks = _mark_tasks(tmp_path, ["h1", "ok1"])
    out = tmp_path / "out"
    result = run_batch(fake, tmp_path, str(tasks), "-o", str(out), *MODEL, "-j", "2",
                       "--idle-timeout", "8")  # fmt: skip
    assert fake.hanging.is_set()
    assert result.returncode == 1, result.stderr
    by_id = {r["task_id"]: r for r in records(out)}
    assert (by_id["h1"]["status"], by_id["h1"]["final"]) == ("idle_timeout", True)
    assert by_id["ok1"]["status"] == "ok"


def test_a_task_budget_stops_the_tool_before_it_runs(fake: Fake, tmp_path: Path) -> None:
    tasks = _mark_tasks(tmp_path, ["b1"], max_cost=0.01)
    out = tmp_path / "out"
    result = run_batch(fake, tmp_path, str(tasks), "-o", str(out), *MODEL, "--keep-work")
    assert result.returncode == 1, result.stderr
    (record,) = records(out)
    assert (record["status"], record["final"]) == ("budget_exceeded", True)
    assert not (out / "work" / "b1" / "marker.txt").exists()
    assert fake.log == ["b1:first"]  # no request after the budget was spent
    session = (out / record["session"]).read_text()
    assert "Budget exceeded: spent $0.0150 of $0.0100" in session  # the gate's reason


def test_a_last_answer_past_the_budget_that_needs_nothing_more_is_ok(
    fake: Fake, tmp_path: Path
) -> None:
    tasks = _mark_tasks(tmp_path, ["b2"], max_cost=0.02)  # 0.015 per answer: the tool runs
    out = tmp_path / "out"
    result = run_batch(fake, tmp_path, str(tasks), "-o", str(out), *MODEL, "--keep-work")
    assert result.returncode == 0, result.stderr
    (record,) = records(out)
    assert (record["status"], record["cost"]) == ("ok", pytest.approx(0.03))
    assert (out / "work" / "b2" / "marker.txt").read_text() == "b2"


def test_a_task_max_cost_overrides_the_default(fake: Fake, tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    tasks = write_tasks(tmp_path / "t.jsonl", [
        {"id": "rich", "prompt": "mark rich", "workdir": "src", "max_cost": 1.0},
        {"id": "poor", "prompt": "mark poor", "workdir": "src"},
    ])  # fmt: skip
    out = tmp_path / "out"
    run_batch(fake, tmp_path, str(tasks), "-o", str(out), *MODEL, "--task-max-cost", "0.001")
    assert {r["task_id"]: r["status"] for r in records(out)} == {
        "rich": "ok", "poor": "budget_exceeded",
    }  # fmt: skip


def test_the_batch_budget_is_passed_to_each_child(fake: Fake, tmp_path: Path) -> None:
    tasks = _mark_tasks(tmp_path, ["c1"])
    out = tmp_path / "out"
    result = run_batch(fake, tmp_path, str(tasks), "-o", str(out), *MODEL, "--keep-work",
                       "--max-cost", "0.005")  # fmt: skip
    (record,) = records(out)
    assert record["status"] == "budget_exceeded", result.stderr
    assert not (out / "work" / "c1" / "marker.txt").exists()


def test_a_spent_batch_budget_starts_nothing_more_and_stops_the_batch(
    fake: Fake, tmp_path: Path
) -> None:
    tasks = _mark_tasks(tmp_path, ["d1", "d2"])
    out = tmp_path / "out"
    result = run_batch(fake, tmp_path, str(tasks), "-o", str(out), *MODEL, "-j", "1",
                       "--max-cost", "0.03")  # fmt: skip
    assert result.returncode == 2, result.stderr
    assert "--max-cost is spent" in result.stderr
    assert [(r["task_id"], r["status"]) for r in records(out)] == [("d1", "ok")]
    assert fake.requests_for("d2") == 0


def test_status_and_summary(fake: Fake, tmp_path: Path) -> None:
    fake.hang.add("s2")
    tasks = _mark_tasks(tmp_path, ["s1", "s2"])
    out = tmp_path / "out"
    run_batch(fake, tmp_path, str(tasks), "-o", str(out), *MODEL, "--idle-timeout", "8")
    status = subprocess.run(
        [*_pi(), "batch", "status", str(out)], capture_output=True, text=True, check=True
    ).stdout
    assert "2/2 attempts final" in status and "idle_timeout: 1" in status and "ok: 1" in status
    summary = json.loads(
        subprocess.run(
            [*_pi(), "batch", "summary", str(out), "--json"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    )
    assert summary["by_status"] == {"ok": 1, "idle_timeout": 1}
    assert summary["by_error_class"] == {"idle_timeout": 1}
    assert summary["by_model"] == {"fake/fake-model": 2}
    assert summary["cost"] == pytest.approx(0.03)  # the hung answer never finished
    assert summary["tokens"]["input"] == 20 and summary["wall_s_p95"] >= summary["wall_s_p50"]


def _pi() -> list[str]:
    import sys

    return [sys.executable, "-m", "pi_core"]


def _worktrees(repo: Path) -> int:
    listing = subprocess.run(["git", "worktree", "list"], cwd=repo, capture_output=True,
                             text=True, check=True).stdout  # fmt: skip
    return len(listing.splitlines())


def test_a_task_timeout_is_a_final_failure(fake: Fake, tmp_path: Path) -> None:
    fake.hang.add("slow1")
    tasks = _mark_tasks(tmp_path, ["slow1"], timeout_s=2)
    out = tmp_path / "out"
    result = run_batch(fake, tmp_path, str(tasks), "-o", str(out), *MODEL, "--idle-timeout", "60")
    assert fake.hanging.is_set()
    assert result.returncode == 1, result.stderr
    (record,) = records(out)
    assert (record["status"], record["final"]) == ("timeout", True)


def test_in_place_runs_in_the_folder_itself(fake: Fake, tmp_path: Path) -> None:
    tasks = _mark_tasks(tmp_path, ["here"])
    out = tmp_path / "out"
    result = run_batch(fake, tmp_path, str(tasks), "-o", str(out), *MODEL, "--in-place")
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "src" / "marker.txt").read_text() == "here"


def test_setup_runs_first_and_a_failing_setup_is_an_infrastructure_error(
    fake: Fake, tmp_path: Path
) -> None:
    (tmp_path / "src").mkdir()
    tasks = write_tasks(tmp_path / "t.jsonl", [
        {"id": "s-ok", "prompt": "mark s-ok", "workdir": "src", "setup": "echo ready > ready.txt"},
        {"id": "s-bad", "prompt": "mark s-bad", "workdir": "src", "setup": "echo no; exit 4"},
    ])  # fmt: skip
    out = tmp_path / "out"
    result = run_batch(fake, tmp_path, str(tasks), "-o", str(out), *MODEL, "--keep-work",
                       "--retries", "1", "--backoff", "0.01")  # fmt: skip
    assert result.returncode == 1, result.stderr
    by_id: dict[str, list[dict[str, object]]] = {}
    for record in records(out):
        by_id.setdefault(str(record["task_id"]), []).append(record)
    assert (out / "work" / "s-ok" / "ready.txt").read_text() == "ready\n"
    assert [r["status"] for r in by_id["s-ok"]] == ["ok"]
    assert [(r["error_class"], r["final"]) for r in by_id["s-bad"]] == [
        ("infrastructure", False), ("infrastructure", True),
    ]  # fmt: skip
    assert "setup exited with status 4" in str(by_id["s-bad"][-1]["error"])
    assert (out / "artifacts" / "s-bad" / "setup.log").read_text() == "no\n"
    assert fake.requests_for("s-bad") == 0
