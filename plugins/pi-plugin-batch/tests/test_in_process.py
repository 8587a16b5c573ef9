"""`pi batch --in-process`: the attempts run as SDK sessions in the driver, not as pi children."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from batch_helpers import Fake, git_repo, records, run_batch, write_tasks
from pi_plugin_batch.runner import AttemptSpec
from pi_plugin_batch.tasks import Task

from pi_core import SessionManager
from pi_core.testing import FakeResponse, RecordedRequest, chat_stream
from pi_core.testing.gate import PipeGate

MODEL = ("--model", "fake/fake-model")
VOLATILE = {"host", "pid", "started_at", "ended_at", "wall_s"}


def _mixed_tasks(tmp_path: Path) -> Path:
    """Folder copies, worktrees at a tag, a prompt file, a budget that stops the tool."""
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "README").write_text("a project\n")
    git_repo(tmp_path / "repo", {"app.py": "print('v1')\n"}, tag="v1")
    (tmp_path / "prompts").mkdir()
    (tmp_path / "prompts" / "p1.md").write_text("mark p1")
    tasks: list[dict[str, Any]] = [
        {"id": f"w{n}", "prompt": f"mark w{n}", "workdir": "src", "metadata": {"n": n}}
        for n in range(6)
    ]
    tasks += [{"id": f"r{n}", "prompt": f"mark r{n}", "repo": "repo", "ref": "v1"} for n in (1, 2)]
    tasks.append({"id": "p1", "prompt_file": "prompts/p1.md", "workdir": "src"})
    tasks.append({"id": "b1", "prompt": "mark b1", "workdir": "src", "max_cost": 0.01})
    return write_tasks(tmp_path / "tasks.jsonl", tasks)


def _normalised(out: Path) -> list[dict[str, Any]]:
    rows = [{k: v for k, v in r.items() if k not in VOLATILE} for r in records(out)]
    return sorted(rows, key=lambda r: (r["task_id"], r["attempt"], r["try"]))


def test_in_process_gives_the_child_runners_records(fake: Fake, tmp_path: Path) -> None:
    tasks = _mixed_tasks(tmp_path)
    children, inside = tmp_path / "children", tmp_path / "inside"
    first = run_batch(fake, tmp_path, str(tasks), "-o", str(children), "-j", "4", *MODEL)
    assert first.returncode == 1, first.stderr  # b1's budget is a failed task
    second = run_batch(fake, tmp_path, str(tasks), "-o", str(inside), "-j", "4", *MODEL,
                       "--in-process")  # fmt: skip
    assert second.returncode == 1, second.stderr
    assert len(records(inside)) == 10
    assert _normalised(inside) == _normalised(children)
    by_id = {r["task_id"]: r for r in records(inside)}
    assert by_id["b1"]["status"] == "budget_exceeded"
    assert "+r1" in by_id["r1"]["patch"] and "marker.txt" in by_id["r1"]["patch"]
    for record in records(inside):
        session = SessionManager.open(inside / record["session"])
        (entry,) = [e for e in session.get_raw_entries() if e.get("customType") == "batch_task"]
        assert entry["data"]["id"] == record["task_id"]
        if record["status"] == "ok":
            assert len(session.build_session_context().messages) == 4
        assert (inside / record["artifacts"] / "patch.diff").read_text() == record["patch"]


def _env_route(fake: Fake) -> None:
    """`env <id>`: a bash call writing its parent's pid and $BATCH_MARK; else the usual fake."""

    def answer(request: RecordedRequest) -> FakeResponse | None:
        body = request.json()
        user = next(m for m in body["messages"] if m.get("role") == "user")
        content = user["content"]
        prompt = content if isinstance(content, str) else "".join(p["text"] for p in content)
        if not prompt.startswith("env "):
            return fake.answer(request)
        if any(m.get("role") == "tool" for m in body["messages"]):
            return chat_stream("done")
        command = 'printf %s "$PPID:$BATCH_MARK" > marker.txt'
        return chat_stream("", tool_calls=[("bash", {"command": command})])

    fake.server.route(answer)


def test_the_tools_run_in_the_driver_with_the_tasks_env(fake: Fake, tmp_path: Path) -> None:
    _env_route(fake)
    (tmp_path / "src").mkdir()
    task = {"id": "e1", "prompt": "env e1", "workdir": "src", "env": {"BATCH_MARK": "m1"}}
    tasks = write_tasks(tmp_path / "t.jsonl", [task])
    out = tmp_path / "out"
    result = run_batch(fake, tmp_path, str(tasks), "-o", str(out), *MODEL, "--in-process",
                       "--keep-work")  # fmt: skip
    assert result.returncode == 0, result.stderr
    (record,) = records(out)
    parent, mark = (out / "work" / "e1" / "marker.txt").read_text().split(":")
    assert (int(parent), mark) == (record["pid"], "m1")  # bash's parent: the driver itself
    assert record["exit_code"] == 0


def test_an_in_process_hang_is_cut_at_the_idle_timeout(fake: Fake, tmp_path: Path) -> None:
    fake.hang.add("h1")
    (tmp_path / "src").mkdir()
    tasks = write_tasks(tmp_path / "t.jsonl", [
        {"id": "h1", "prompt": "mark h1", "workdir": "src"},
        {"id": "ok1", "prompt": "mark ok1", "workdir": "src"},
    ])  # fmt: skip
    out = tmp_path / "out"
    result = run_batch(fake, tmp_path, str(tasks), "-o", str(out), *MODEL, "-j", "2",
                       "--idle-timeout", "3", "--in-process")  # fmt: skip
    assert fake.hanging.is_set()
    assert result.returncode == 1, result.stderr
    by_id = {r["task_id"]: r for r in records(out)}
    assert (by_id["h1"]["status"], by_id["h1"]["final"]) == ("idle_timeout", True)
    assert by_id["ok1"]["status"] == "ok"


def test_a_task_timeout_aborts_the_in_process_session(fake: Fake, tmp_path: Path) -> None:
    fake.hang.add("t1")
    (tmp_path / "src").mkdir()
    task = {"id": "t1", "prompt": "mark t1", "workdir": "src", "timeout_s": 2}
    tasks = write_tasks(tmp_path / "t.jsonl", [task])
    out = tmp_path / "out"
    result = run_batch(fake, tmp_path, str(tasks), "-o", str(out), *MODEL, "--in-process")
    assert result.returncode == 1, result.stderr
    (record,) = records(out)
    assert (record["status"], record["error_class"], record["final"]) == (
        "timeout", "timeout", True,
    )  # fmt: skip
    assert SessionManager.open(out / record["session"]).get_raw_entries()


def test_an_in_process_batch_resumes(fake: Fake, tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    lines = [{"id": i, "prompt": f"mark {i}", "workdir": "src"} for i in ("a", "b")]
    tasks = write_tasks(tmp_path / "t.jsonl", lines)
    out = tmp_path / "out"
    first = run_batch(fake, tmp_path, str(tasks), "-o", str(out), *MODEL, "--in-process")
    assert first.returncode == 0, first.stderr
    write_tasks(tasks, [*lines, {"id": "c", "prompt": "mark c", "workdir": "src"}])
    again = run_batch(fake, tmp_path, str(tasks), "-o", str(out), *MODEL, "--in-process")
    assert again.returncode == 0, again.stderr
    assert sorted(r["task_id"] for r in records(out)) == ["a", "b", "c"]
    assert [fake.requests_for(i) for i in ("a", "b", "c")] == [2, 2, 2]


def test_a_spent_batch_budget_stops_an_in_process_batch(fake: Fake, tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    lines = [{"id": i, "prompt": f"mark {i}", "workdir": "src"} for i in ("d1", "d2")]
    tasks = write_tasks(tmp_path / "t.jsonl", lines)
    out = tmp_path / "out"
    result = run_batch(fake, tmp_path, str(tasks), "-o", str(out), *MODEL, "-j", "1",
                       "--max-cost", "0.03", "--in-process")  # fmt: skip
    assert result.returncode == 2, result.stderr
    assert [(r["task_id"], r["status"]) for r in records(out)] == [("d1", "ok")]
    assert fake.requests_for("d2") == 0


@pytest.mark.parametrize(
    ("extra", "named"),
    [(("--record",), "--record and --replay"), (("--ray", "auto"), "not with --ray")],
)
def test_in_process_refuses_what_needs_a_process_per_attempt(
    fake: Fake, tmp_path: Path, extra: tuple[str, ...], named: str
) -> None:
    tasks = write_tasks(tmp_path / "t.jsonl", [{"id": "x", "prompt": "mark x"}])
    out = tmp_path / "out"
    result = run_batch(fake, tmp_path, str(tasks), "-o", str(out), *MODEL, "--in-process", *extra)
    assert result.returncode == 3, result.stderr
    assert named in result.stderr
    assert fake.server.requests == [] and not out.exists()


def test_in_process_refuses_replay(fake: Fake, tmp_path: Path) -> None:
    tasks = write_tasks(tmp_path / "t.jsonl", [{"id": "x", "prompt": "mark x"}])
    recorded = tmp_path / "recorded"
    recorded.mkdir()
    result = run_batch(fake, tmp_path, str(tasks), "-o", str(tmp_path / "out"), *MODEL,
                       "--in-process", "--replay", str(recorded))  # fmt: skip
    assert result.returncode == 3 and "--record and --replay" in result.stderr


def _processes_naming(text: str) -> list[int]:
    """Pids of the processes whose command line holds `text`."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and text.encode() in (entry / "cmdline").read_bytes():
                found.append(int(entry.name))
        except OSError:
            continue
    return found


def test_a_tool_hung_past_the_timeout_is_killed_and_the_batch_goes_on(
    fake: Fake, tmp_path: Path
) -> None:
    gate = PipeGate(tmp_path / "gate")  # never opened: the command would wait for ever
    command = f"{gate.shell_wait}; printf %s late > late.txt"

    def answer(request: RecordedRequest) -> FakeResponse | None:
        body = request.json()
        if "hold" not in json.dumps(body["messages"][:2]):
            return fake.answer(request)
        if any(m.get("role") == "tool" for m in body["messages"]):
            return chat_stream("done")
        return chat_stream("", tool_calls=[("bash", {"command": command})])

    fake.server.route(answer)
    (tmp_path / "src").mkdir()
    tasks = write_tasks(tmp_path / "t.jsonl", [
        {"id": "g1", "prompt": "hold g1", "workdir": "src", "timeout_s": 2},
        {"id": "ok1", "prompt": "mark ok1", "workdir": "src"},
    ])  # fmt: skip
    out = tmp_path / "out"
    result = run_batch(fake, tmp_path, str(tasks), "-o", str(out), *MODEL, "-j", "2",
                       "--in-process", "--keep-work")  # fmt: skip
    assert result.returncode == 1, result.stderr
    by_id = {r["task_id"]: r for r in records(out)}
    assert (by_id["g1"]["status"], by_id["g1"]["final"]) == ("timeout", True)
    assert by_id["ok1"]["status"] == "ok"
    assert not (out / "work" / "g1" / "late.txt").exists()
    assert _processes_naming(str(gate.path)) == []  # the tool's shell did not outlive its run


async def test_the_progress_line_hears_each_attempts_current_tool(
    fake: Fake, tmp_path: Path
) -> None:
    from pi_plugin_batch.inprocess_runner import InProcessRunner  # new: main has none

    (tmp_path / "src").mkdir()
    task = Task.model_validate({"id": "p1", "prompt": "mark p1", "workdir": "src"})
    spec = AttemptSpec(task=task, attempt=1, try_index=0, out=tmp_path / "out",
                       task_base=tmp_path, user_agent_dir=fake.agent_dir,
                       model="fake/fake-model", tools=None, max_cost=None, timeout_s=None,
                       idle_timeout_s=60)  # fmt: skip
    heard: list[tuple[str, dict[str, Any]]] = []
    result = await InProcessRunner().run(spec, lambda task_id, e: heard.append((task_id, e)))
    assert result.record["status"] == "ok"
    assert ("p1", {"type": "tool_execution_start", "toolName": "bash"}) in heard
    assert ("p1", {"type": "message_start"}) in heard


@pytest.mark.slow
def test_a_hundred_tasks_eight_at_a_time_in_process(fake: Fake, tmp_path: Path) -> None:
    ids = [f"t{n:03d}" for n in range(100)]
    (tmp_path / "src").mkdir()
    lines = [{"id": i, "prompt": f"mark {i}", "workdir": "src"} for i in ids]
    tasks = write_tasks(tmp_path / "t.jsonl", lines)
    out = tmp_path / "out"
    result = run_batch(fake, tmp_path, str(tasks), "-o", str(out), "-j", "8", *MODEL,
                       "--keep-work", "--in-process", timeout=300)  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert sorted(r["task_id"] for r in records(out)) == ids
    for record in records(out):
        assert record["final"] and record["status"] == "ok"
        assert (out / "work" / record["task_id"] / "marker.txt").read_text() == record["task_id"]
        session = SessionManager.open(out / record["session"])
        assert len(session.build_session_context().messages) == 4
    assert not (tmp_path / "src" / "marker.txt").exists()


def test_in_process_retries_a_503_and_stops_at_an_auth_error(fake: Fake, tmp_path: Path) -> None:
    fake.flaky["f1"] = 1
    (tmp_path / "src").mkdir()
    tasks = write_tasks(tmp_path / "t.jsonl", [
        {"id": "f1", "prompt": "mark f1", "workdir": "src"},
        {"id": "a1", "prompt": "auth a1", "workdir": "src"},
    ])  # fmt: skip
    out = tmp_path / "out"
    result = run_batch(fake, tmp_path, str(tasks), "-o", str(out), *MODEL, "-j", "1",
                       "--backoff", "0.01", "--in-process")  # fmt: skip
    assert result.returncode == 2, result.stderr
    assert "batch stopped" in result.stderr
    rows = [(r["task_id"], r["try"], r["final"], r["error_class"]) for r in records(out)]
    assert rows == [("f1", 0, False, "transient"), ("f1", 1, True, None),
                    ("a1", 0, False, "auth")]  # fmt: skip
