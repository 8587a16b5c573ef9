"""Resume: kill -9 of the driver, a torn last line, stale worktrees, a changed batch, pass@k."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from batch_helpers import (
    Fake,
    batch_env,
    git_repo,
    pi_batch_command,
    records,
    run_batch,
    write_tasks,
)

MODEL = ("--model", "fake/fake-model")


def _processes_mentioning(text: str) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if text in cmdline:
            found.append(int(entry.name))
    return found


def _lines(path: Path) -> int:
    return len(path.read_text().splitlines()) if path.exists() else 0


def _until(condition: Callable[[], bool], timeout: float = 60.0) -> None:
    """Poll a fact (a file's lines, a process gone) until it holds."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError("condition not reached")
        time.sleep(0.05)


def test_kill_9_of_the_driver_then_resume(fake: Fake, tmp_path: Path) -> None:
    git_repo(tmp_path / "repo", {"README": "hello\n"})
    ids = [f"r{n}" for n in range(6)]
    fake.hang.update({"r4", "r5"})
    task_lines = [{"id": i, "prompt": f"mark {i}", "repo": "repo"} for i in ids]
    tasks = write_tasks(tmp_path / "t.jsonl", task_lines)
    out = tmp_path / "out"
    args = [str(tasks), "-o", str(out), *MODEL, "-j", "3"]
    driver = subprocess.Popen(
        pi_batch_command(*args), env=batch_env(fake, tmp_path), cwd=tmp_path,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    results = out / "results.jsonl"
    _until(lambda: fake.hanging.is_set() and _lines(results) == 4)
    children = _processes_mentioning(str(out / "sessions"))
    assert children, "no pi child was running"
    os.kill(driver.pid, signal.SIGKILL)
    driver.wait()
    _until(lambda: not _processes_mentioning(str(out / "sessions")))  # the children died too
    assert any((out / "work").iterdir())  # the killed driver left working copies behind
    finished = {r["task_id"] for r in records(out)}
    assert finished == {"r0", "r1", "r2", "r3"}
    seen_before = Counter(entry.split(":")[0] for entry in fake.log)
    with results.open("ab") as file:  # a write the killed driver did not finish
        file.write(b'{"task_id": "r4", "attempt": 1, "fin')

    fake.hang.clear()
    result = run_batch(fake, tmp_path, *args)
    assert result.returncode == 0, result.stderr
    assert "torn last line" in result.stderr
    lines = records(out)  # every line parses: the torn one was cut
    assert sorted(r["task_id"] for r in lines) == ids  # no lost record, no duplicate
    assert all(r["final"] and r["status"] == "ok" for r in lines)
    after = Counter(entry.split(":")[0] for entry in fake.log)
    for task_id in finished:
        assert after[task_id] == seen_before[task_id] == 2  # no request sent twice
    assert list((out / "work").iterdir()) == []
    listing = subprocess.run(["git", "worktree", "list"], cwd=tmp_path / "repo",
                             capture_output=True, text=True, check=True).stdout  # fmt: skip
    assert len(listing.splitlines()) == 1  # no stale worktree


def test_resume_skips_final_tasks_and_refuses_a_changed_prompt(fake: Fake, tmp_path: Path) -> None:
    tasks_path = tmp_path / "t.jsonl"
    tasks = [{"id": "a", "prompt": "mark a"}, {"id": "b", "prompt": "mark b"}]
    write_tasks(tasks_path, tasks)
    out = tmp_path / "out"
    assert run_batch(fake, tmp_path, str(tasks_path), "-o", str(out), *MODEL).returncode == 0
    requests = len(fake.log)
    again = run_batch(fake, tmp_path, str(tasks_path), "-o", str(out), *MODEL)
    assert again.returncode == 0 and len(fake.log) == requests and len(records(out)) == 2

    tasks[1]["prompt"] = "mark b differently"
    write_tasks(tasks_path, tasks)
    refused = run_batch(fake, tmp_path, str(tasks_path), "-o", str(out), *MODEL)
    assert refused.returncode == 3
    assert "task b: prompt, model, tools or settings changed" in refused.stderr
    assert "--force" in refused.stderr
    other_model = run_batch(fake, tmp_path, str(tasks_path), "-o", str(out),
                            "--model", "fake/other")  # fmt: skip
    assert other_model.returncode == 3 and "--model changed" in other_model.stderr
    forced = run_batch(fake, tmp_path, str(tasks_path), "-o", str(out), *MODEL, "--force")
    assert forced.returncode == 0 and len(fake.log) == requests
    frozen = json.loads((out / "batch.json").read_text())
    assert frozen["args"]["model"] == "fake/fake-model"


def test_attempts_k_runs_each_task_k_times(fake: Fake, tmp_path: Path) -> None:
    tasks = write_tasks(tmp_path / "t.jsonl", [{"id": "p", "prompt": "mark p"}])
    out = tmp_path / "out"
    result = run_batch(fake, tmp_path, str(tasks), "-o", str(out), *MODEL, "--attempts", "2")
    assert result.returncode == 0, result.stderr
    assert sorted((r["attempt"], r["session"]) for r in records(out)) == [
        (1, "sessions/p.jsonl"),
        (2, "sessions/p.a2.jsonl"),
    ]
    assert fake.log.count("p:first") == 2


def test_kill_9_of_a_child_is_an_infrastructure_error_and_is_retried(
    fake: Fake, tmp_path: Path
) -> None:
    fake.hang.add("k1")
    tasks = write_tasks(tmp_path / "t.jsonl", [{"id": "k1", "prompt": "mark k1"}])
    out = tmp_path / "out"
    args = [str(tasks), "-o", str(out), *MODEL, "--backoff", "0.01"]
    driver = subprocess.Popen(
        pi_batch_command(*args), env=batch_env(fake, tmp_path), cwd=tmp_path,
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    _until(fake.hanging.is_set)
    (child,) = _processes_mentioning(str(out / "sessions" / "k1.jsonl"))
    fake.hang.clear()
    os.kill(child, signal.SIGKILL)
    _, stderr = driver.communicate(timeout=120)
    assert driver.returncode == 0, stderr
    killed, retried = records(out)
    assert (killed["error_class"], killed["final"], killed["exit_code"]) == (
        "infrastructure", False, -9,
    )  # fmt: skip
    assert (retried["status"], retried["final"], retried["try"]) == ("ok", True, 1)
    assert fake.log == ["k1:first", "k1:first", "k1:final"]
