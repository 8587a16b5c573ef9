"""`pi batch --ray`: the same attempts as Ray tasks on a real local head give the same results."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from batch_helpers import (
    Fake,
    batch_env,
    git_repo,
    pi_batch_command,
    records,
    run_batch,
    write_tasks,
)
from ray_head import free_port
from ray_head import ray_head as start_ray_head

from pi_core import SessionManager

MODEL = ("--model", "fake/fake-model")
# What differs between two runs of the same attempt wherever it runs.
VOLATILE = {"host", "pid", "started_at", "ended_at", "wall_s"}


@pytest.fixture(scope="session")
def ray_address() -> Iterator[str]:
    """A real local Ray head (2 CPUs, its own temp dir); skipped only when ray is not installed."""
    pytest.importorskip("ray")
    with start_ray_head(num_cpus=2) as address:
        yield address


def _mixed_tasks(tmp_path: Path) -> Path:
    """Ten tasks of every kind of source: a folder copy, a worktree at a tag, a prompt file."""
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "README").write_text("a project\n")
    git_repo(tmp_path / "repo", {"README": "v1\n"}, tag="v1", then={"README": "v2\n"})
    (tmp_path / "prompts").mkdir()
    (tmp_path / "prompts" / "p1.md").write_text("mark p1")
    tasks: list[dict[str, Any]] = [
        {"id": f"w{n}", "prompt": f"mark w{n}", "workdir": "src", "metadata": {"n": n}}
        for n in range(6)
    ]
    tasks += [{"id": f"r{n}", "prompt": f"mark r{n}", "repo": "repo", "ref": "v1"} for n in (1, 2)]
    tasks.append({"id": "p1", "prompt_file": "prompts/p1.md", "workdir": "src"})
    tasks.append({"id": "e1", "prompt": "mark e1"})
    return write_tasks(tmp_path / "tasks.jsonl", tasks)


def _normalised(out: Path) -> list[dict[str, Any]]:
    rows = [{k: v for k, v in r.items() if k not in VOLATILE} for r in records(out)]
    return sorted(rows, key=lambda r: (r["task_id"], r["attempt"], r["try"]))


@pytest.mark.slow
def test_ray_gives_the_local_pools_results(fake: Fake, tmp_path: Path, ray_address: str) -> None:
    tasks = _mixed_tasks(tmp_path)
    local, remote = tmp_path / "local", tmp_path / "remote"
    first = run_batch(fake, tmp_path, str(tasks), "-o", str(local), "-j", "8", *MODEL)
    assert first.returncode == 0, first.stderr
    second = run_batch(fake, tmp_path, str(tasks), "-o", str(remote), *MODEL,
                       "--ray", ray_address, timeout=300)  # fmt: skip
    assert second.returncode == 0, second.stderr
    assert len(records(remote)) == 10
    assert _normalised(remote) == _normalised(local)
    worker_pids = {r["pid"] for r in records(remote)}
    assert os.getpid() not in worker_pids and len(worker_pids) >= 1
    for record in records(remote):
        assert record["status"] == "ok" and record["final"]
        session = SessionManager.open(remote / record["session"])
        assert len(session.build_session_context().messages) == 4
        (entry,) = [e for e in session.get_raw_entries() if e.get("customType") == "batch_task"]
        assert entry["data"]["id"] == record["task_id"]
        artifacts = remote / record["artifacts"]
        assert (artifacts / "patch.diff").read_text() == record["patch"]
        assert (artifacts / "stderr.txt").exists()
    (r1,) = [r for r in records(remote) if r["task_id"] == "r1"]
    assert "+r1" in r1["patch"] and "marker.txt" in r1["patch"]
    assert not (remote / "work").exists() or not any((remote / "work").iterdir())


def _pids_running(prompt: str) -> list[tuple[int, int]]:
    """(pid, parent pid) of every pi child whose command line holds `prompt`."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0")
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        if b"pi_core" in argv[:3] and prompt.encode() in argv:
            found.append((int(entry.name), int(stat.rsplit(")", 1)[1].split()[1])))
    pids = {pid for pid, _ in found}
    return [(pid, parent) for pid, parent in found if parent not in pids]  # not a fork of pi


def _wait_for(condition: Any, timeout: float = 60) -> Any:
    deadline = time.monotonic() + timeout
    while not (value := condition()):
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.1)
    return value


@pytest.mark.slow
def test_a_killed_ray_worker_is_an_infrastructure_error_retried(
    fake: Fake, tmp_path: Path, ray_address: str
) -> None:
    fake.hang.add("k1")
    tasks = write_tasks(tmp_path / "tasks.jsonl", [{"id": "k1", "prompt": "mark k1"}])
    out = tmp_path / "out"
    args = [str(tasks), "-o", str(out), *MODEL, "--ray", ray_address, "--backoff", "0"]
    driver = subprocess.Popen(
        pi_batch_command(*args),
        env=batch_env(fake, tmp_path), cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True,
    )  # fmt: skip
    try:
        assert fake.hanging.wait(120)
        ((child, worker),) = _wait_for(lambda: _pids_running("mark k1"))
        fake.hang.discard("k1")  # the retry is answered
        os.kill(worker, signal.SIGKILL)
        _wait_for(lambda: not Path(f"/proc/{child}").exists() or _zombie(child))
        _out, err = driver.communicate(timeout=180)
    finally:
        driver.kill()
    assert driver.returncode == 0, err
    first, last = records(out)
    assert (first["final"], first["error_class"]) == (False, "infrastructure")
    assert "ray" in first["error"].lower()
    assert (last["final"], last["status"], last["try"]) == (True, "ok", 1)
    assert fake.requests_for("k1") == 3  # the hung request, then the retry's two


def _zombie(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True


def test_ray_without_the_extra_is_a_usage_error_naming_it(fake: Fake, tmp_path: Path) -> None:
    shadow = tmp_path / "shadow" / "ray"
    shadow.mkdir(parents=True)
    (shadow / "__init__.py").write_text("raise ImportError('no ray here')\n")
    tasks = write_tasks(tmp_path / "tasks.jsonl", [{"id": "a", "prompt": "mark a"}])
    env = batch_env(fake, tmp_path)
    env["PYTHONPATH"] = os.pathsep.join([str(tmp_path / "shadow"), env.get("PYTHONPATH", "")])
    result = subprocess.run(
        [*pi_batch_command(), str(tasks), "-o", str(tmp_path / "out"), *MODEL, "--ray", "auto"],
        env=env, cwd=tmp_path, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert result.returncode == 3, result.stderr
    assert "pi-plugin-batch[ray]" in result.stderr
    assert not fake.server.requests


def test_ray_refuses_options_that_need_the_drivers_disk(fake: Fake, tmp_path: Path) -> None:
    tasks = write_tasks(tmp_path / "tasks.jsonl", [{"id": "a", "prompt": "mark a"}])
    result = run_batch(fake, tmp_path, str(tasks), "-o", str(tmp_path / "out"), *MODEL,
                       "--ray", "auto", "--keep-work")  # fmt: skip
    assert result.returncode == 3
    assert "--keep-work" in result.stderr
    assert not fake.server.requests


@pytest.mark.slow
def test_recordings_travel_to_and_from_the_ray_nodes(
    fake: Fake, tmp_path: Path, ray_address: str
) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "README").write_text("a project\n")
    ids = ["r1", "r2", "r3"]
    task_lines = [{"id": i, "prompt": f"mark {i}", "workdir": "src"} for i in ids]
    tasks = write_tasks(tmp_path / "tasks.jsonl", task_lines)
    recorded = tmp_path / "recorded"
    result = run_batch(fake, tmp_path, str(tasks), "-o", str(recorded), *MODEL, "--record",
                       "--ray", ray_address, timeout=300)  # fmt: skip
    assert result.returncode == 0, result.stderr
    for task_id in ids:  # each node's recording came back to the driver's OUT
        lines = (recorded / "recordings" / f"{task_id}.jsonl").read_text().splitlines()
        assert [json.loads(line)["type"] for line in lines] == ["meta", "exchange", "exchange"]
    fake.server.stop()
    sent = len(fake.server.requests)
    changed = write_tasks(tmp_path / "changed.jsonl", [
        {"id": "r1", "prompt": "mark r1", "workdir": "src"},
        {"id": "r2", "prompt": "mark r2 please", "workdir": "src"},  # diverges at request 1
        {"id": "r3", "prompt": "mark r3", "workdir": "src"},
        {"id": "r4", "prompt": "mark r4", "workdir": "src"},  # never recorded
    ])  # fmt: skip
    local, remote = tmp_path / "local", tmp_path / "remote"
    first = run_batch(fake, tmp_path, str(changed), "-o", str(local), *MODEL,
                      "--replay", str(recorded))  # fmt: skip
    second = run_batch(fake, tmp_path, str(changed), "-o", str(remote), *MODEL,
                       "--replay", str(recorded), "--ray", ray_address, timeout=300)  # fmt: skip
    assert (first.returncode, second.returncode) == (1, 1), (first.stderr, second.stderr)
    assert len(fake.server.requests) == sent  # nothing reached a model
    assert _normalised(remote) == _normalised(local)
    by_task = {r["task_id"]: r for r in records(remote)}
    assert [by_task[i]["status"] for i in ("r1", "r3")] == ["ok", "ok"]
    assert by_task["r1"]["final_text"] == "done r1"
    assert by_task["r2"]["error"].startswith("r2: replay divergence at request 1: ")
    assert by_task["r4"]["error"].startswith("r4: replay divergence: no recording ")
    for task_id in ("r1", "r3"):  # the replay on the node was recorded in turn, and came back
        text = (remote / "recordings" / f"{task_id}.jsonl").read_text()
        assert text.count('"type": "exchange"') == 2


@pytest.mark.slow
def test_kill_9_of_the_driver_ends_its_ray_attempts_and_resume_finishes_them(
    fake: Fake, tmp_path: Path, ray_address: str
) -> None:
    fake.hang.add("d1")
    tasks = write_tasks(tmp_path / "tasks.jsonl", [{"id": "d1", "prompt": "mark d1"}])
    args = [str(tasks), "-o", str(tmp_path / "out"), *MODEL, "--ray", ray_address]
    driver = subprocess.Popen(pi_batch_command(*args), env=batch_env(fake, tmp_path),
                              cwd=tmp_path, stderr=subprocess.DEVNULL)  # fmt: skip
    try:
        assert fake.hanging.wait(120)
        ((child, _worker),) = _wait_for(lambda: _pids_running("mark d1"))
    finally:
        driver.kill()
        driver.wait()
    _wait_for(lambda: not Path(f"/proc/{child}").exists() or _zombie(child))  # no orphan
    fake.hang.discard("d1")
    again = run_batch(fake, tmp_path, *args, timeout=180)
    assert again.returncode == 0, again.stderr
    (record,) = records(tmp_path / "out")
    assert (record["final"], record["status"]) == (True, "ok")
    assert fake.requests_for("d1") == 3  # the hung request, then the resumed run's two


@pytest.mark.slow
async def test_a_remote_attempts_current_tool_reaches_the_drivers_progress(
    fake: Fake, tmp_path: Path, ray_address: str
) -> None:
    from pi_plugin_batch.ray_runner import RayRunner
    from pi_plugin_batch.runner import AttemptSpec
    from pi_plugin_batch.tasks import Task

    spec = AttemptSpec(
        task=Task(id="v1", prompt="mark v1"), attempt=1, try_index=0, out=tmp_path / "out",
        task_base=tmp_path, user_agent_dir=fake.agent_dir, model="fake/fake-model", tools=None,
        max_cost=None, timeout_s=None, idle_timeout_s=60,
    )  # fmt: skip
    seen: list[tuple[str, dict[str, Any]]] = []
    runner = RayRunner(ray_address)
    try:
        result = await runner.run(spec, lambda task_id, event: seen.append((task_id, event)))
    finally:
        runner.close()
    assert result.record["status"] == "ok", result.record
    assert ("v1", {"type": "tool_execution_start", "toolName": "bash"}) in seen
    assert (tmp_path / "out" / "sessions" / "v1.jsonl").stat().st_size > 0


@pytest.mark.slow
def test_a_stopped_ray_batch_kills_its_running_attempts(
    fake: Fake, tmp_path: Path, ray_address: str
) -> None:
    fake.hang.add("h1")
    flag = tmp_path / "go"  # the auth task starts once h1 hangs (the test's node is this machine)
    tasks = write_tasks(tmp_path / "tasks.jsonl", [
        {"id": "h1", "prompt": "mark h1"},
        {"id": "a1", "prompt": "auth a1", "setup": f"while [ ! -e {flag} ]; do sleep 0.1; done"},
    ])  # fmt: skip
    args = [str(tasks), "-o", str(tmp_path / "out"), *MODEL, "--ray", ray_address]
    driver = subprocess.Popen(pi_batch_command(*args), env=batch_env(fake, tmp_path),
                              cwd=tmp_path, stderr=subprocess.PIPE, text=True)  # fmt: skip
    try:
        assert fake.hanging.wait(120)
        ((child, _worker),) = _wait_for(lambda: _pids_running("mark h1"))
        flag.touch()
        _out, err = driver.communicate(timeout=120)
    finally:
        driver.kill()
    assert driver.returncode == 2, err
    assert "batch stopped" in err
    _wait_for(lambda: not Path(f"/proc/{child}").exists() or _zombie(child))
    (record,) = records(tmp_path / "out")
    assert (record["task_id"], record["error_class"], record["final"]) == ("a1", "auth", False)


@pytest.mark.slow
def test_without_j_ray_runs_as_many_attempts_as_the_clusters_cpus_hold(
    fake: Fake, tmp_path: Path, ray_address: str
) -> None:
    ids = [f"c{n}" for n in range(8)]  # 2 CPUs at 0.25 each: 8 at once (the local -j is 4)
    fake.hang.update(ids)
    tasks = write_tasks(tmp_path / "tasks.jsonl", [{"id": i, "prompt": f"mark {i}"} for i in ids])
    args = [str(tasks), "-o", str(tmp_path / "out"), *MODEL, "--ray", ray_address]
    driver = subprocess.Popen(pi_batch_command(*args), env=batch_env(fake, tmp_path),
                              cwd=tmp_path, stderr=subprocess.DEVNULL)  # fmt: skip
    try:
        _wait_for(lambda: all(fake.requests_for(i) for i in ids), timeout=180)  # all 8 hang
    finally:
        driver.kill()
        driver.wait()


def test_a_ray_address_nobody_answers_on_is_a_usage_error(fake: Fake, tmp_path: Path) -> None:
    pytest.importorskip("ray")
    tasks = write_tasks(tmp_path / "tasks.jsonl", [{"id": "a", "prompt": "mark a"}])
    address = f"127.0.0.1:{free_port()}"
    result = run_batch(fake, tmp_path, str(tasks), "-o", str(tmp_path / "out"), *MODEL,
                       "--ray", address, timeout=60)  # fmt: skip
    assert result.returncode == 3
    assert f"cannot reach the Ray cluster at {address}" in result.stderr
