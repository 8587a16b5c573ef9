"""`pi batch open OUT ID`: a finished batch session continues in its recreated working copy."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

from batch_helpers import (
    Fake,
    batch_env,
    git_repo,
    pi_batch_command,
    records,
    run_batch,
    write_tasks,
)

from pi_core.testing import FakeResponse, RecordedRequest, chat_stream, console_script

MODEL = ("--model", "fake/fake-model")


def _last_user_text(body: dict[str, Any]) -> str:
    users = [m for m in body["messages"] if m.get("role") == "user"]
    content = users[-1]["content"] if users else ""
    if isinstance(content, list):
        return "".join(part.get("text", "") for part in content)
    return str(content)


def _continuing(fake: Fake) -> None:
    """After `go on`: read the marker the batch wrote (a `bash` call), then say what it saw."""

    def answer(request: RecordedRequest) -> FakeResponse | None:
        body = request.json()
        if _last_user_text(body) != "go on":
            return fake.answer(request)
        if body["messages"][-1].get("role") == "user":
            return chat_stream("", tool_calls=[("bash", {"command": "cat marker.txt"})])
        return chat_stream(f"saw {body['messages'][-1]['content']}")

    fake.server.route(answer)


def _finished_batch(fake: Fake, tmp_path: Path) -> Path:
    git_repo(tmp_path / "repo", {"README": "v1\n"}, tag="v1")
    task = {"id": "w1", "prompt": "mark w1", "repo": "repo", "ref": "v1"}
    tasks = write_tasks(tmp_path / "tasks.jsonl", [task])
    out = tmp_path / "out"
    result = run_batch(fake, tmp_path, str(tasks), "-o", str(out), *MODEL)
    assert result.returncode == 0, result.stderr
    assert not (out / "work" / "w1").exists()  # the batch removed its working copy
    return out


def _open(fake: Fake, tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        pi_batch_command("open", *args), env=batch_env(fake, tmp_path), capture_output=True,
        text=True, timeout=120, cwd=tmp_path,
    )  # fmt: skip


def _history(body: dict[str, Any]) -> list[tuple[str, str]]:
    """(role, text or tool command) of every message after the system prompt."""
    seen = []
    for message in body["messages"]:
        if message["role"] == "system":
            continue
        calls = message.get("tool_calls") or []
        if calls:
            seen.append((message["role"], json.loads(calls[0]["function"]["arguments"])["command"]))
        else:
            content = message.get("content")
            if isinstance(content, list):
                content = "".join(part.get("text", "") for part in content)
            seen.append((message["role"], str(content)))
    return seen


def test_a_finished_batch_session_continues_where_it_ran(fake: Fake, tmp_path: Path) -> None:
    out = _finished_batch(fake, tmp_path)
    session = out / "sessions" / "w1.jsonl"
    before = len(session.read_text().splitlines())
    _continuing(fake)
    sent_before = len(fake.server.requests)

    result = _open(fake, tmp_path, str(out), "w1", "--", "-p", "go on")

    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "saw w1"  # the marker came back with the patch
    assert (out / "work" / "w1" / "marker.txt").read_text() == "w1"
    first, second = (r.json() for r in fake.server.requests[sent_before:])
    assert _history(first) == [
        ("user", "mark w1"),
        ("assistant", "printf %s w1 > marker.txt"),
        ("tool", "(no output)"),
        ("assistant", "done w1"),
        ("user", "go on"),
    ]
    assert _history(second)[-2:] == [("assistant", "cat marker.txt"), ("tool", "w1")]
    entries = [json.loads(line) for line in session.read_text().splitlines()]
    assert len(entries) > before  # the batch's own session file was continued
    assert entries[0]["cwd"] == str(out / "work" / "w1")
    texts = [e["message"].get("content") for e in entries if e.get("type") == "message"]
    assert [{"type": "text", "text": "saw w1"}] in texts
    assert records(out)[0]["session"] == "sessions/w1.jsonl"


def test_open_elsewhere_forks_the_session_into_that_folder(fake: Fake, tmp_path: Path) -> None:
    out = _finished_batch(fake, tmp_path)
    session = out / "sessions" / "w1.jsonl"
    kept = session.read_text()
    _continuing(fake)
    sent_before = len(fake.server.requests)
    where = tmp_path / "again"

    result = _open(fake, tmp_path, str(out), "w1", "--dir", str(where), "--", "-p", "go on")

    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "saw w1"
    assert (where / "marker.txt").read_text() == "w1"
    first = fake.server.requests[sent_before].json()
    assert _history(first)[:4] == [
        ("user", "mark w1"),
        ("assistant", "printf %s w1 > marker.txt"),
        ("tool", "(no output)"),
        ("assistant", "done w1"),
    ]
    assert session.read_text() == kept  # the batch's file is left as it was
    (fork,) = (fake.agent_dir / "sessions").rglob("*.jsonl")  # the new session, in pi's folder
    header = json.loads(fork.read_text().splitlines()[0])
    assert header["cwd"] == str(where.resolve())
    assert header["parentSession"] == str(session)


def test_an_unknown_task_is_a_usage_error(fake: Fake, tmp_path: Path) -> None:
    out = _finished_batch(fake, tmp_path)

    result = _open(fake, tmp_path, str(out), "nope", "--", "-p", "go on")

    assert result.returncode == 3
    assert "no session" in result.stderr


def test_without_open_pi_refuses_the_session_whose_copy_is_gone(fake: Fake, tmp_path: Path) -> None:
    """Why `open` rebuilds the copy first: pi will not continue a session whose folder is gone."""
    out = _finished_batch(fake, tmp_path)
    session = out / "sessions" / "w1.jsonl"
    sent_before = len(fake.server.requests)
    result = subprocess.run(
        [console_script("pi"), "--session", str(session), "-p", "go on"],
        env=batch_env(fake, tmp_path), capture_output=True, text=True, timeout=120, cwd=tmp_path,
    )  # fmt: skip
    assert result.returncode == 1
    assert "no longer exists" in result.stderr and str(out / "work" / "w1") in result.stderr
    assert len(fake.server.requests) == sent_before
