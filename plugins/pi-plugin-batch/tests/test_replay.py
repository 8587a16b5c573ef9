"""`pi batch --record` then `--replay`: the same records and sessions with the model gone, and a
changed harness named at the first request that differs."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from batch_helpers import Fake, records, run_batch, write_tasks
from pi_plugin_batch import replay

MODEL = ("--model", "fake/fake-model")
IDS = ["r1", "r2", "r3"]
VARYING = {"host", "pid", "started_at", "ended_at", "wall_s"}
KEY = "test-key"  # the fake's models.json apiKey


def _tasks(tmp_path: Path, prompts: dict[str, str] | None = None) -> Path:
    (tmp_path / "src").mkdir(exist_ok=True)
    (tmp_path / "src" / "README").write_text("a project\n")
    prompts = prompts or {}
    tasks = [{"id": i, "prompt": prompts.get(i, f"mark {i}"), "workdir": "src"} for i in IDS]
    return write_tasks(tmp_path / "tasks.jsonl", tasks)


def _recorded(fake: Fake, tmp_path: Path) -> Path:
    """Record a batch of three tasks (a bash call each), then stop the fake model."""
    out = tmp_path / "recorded"
    result = run_batch(fake, tmp_path, str(_tasks(tmp_path)), "-o", str(out), "-j", "3", *MODEL,
                       "--record")  # fmt: skip
    assert result.returncode == 0, result.stderr
    fake.server.stop()
    return out


def _stable(record: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in record.items() if k not in VARYING}


def _session(path: Path, out: Path) -> list[dict[str, Any]]:
    """A session file with its random ids, its times and its output folder replaced."""
    text = path.read_text().replace(str(out), "<OUT>")
    ids: dict[str, str] = {}
    entries = []
    for line in text.splitlines():
        entry = json.loads(line)
        for key in ("id", "parentId"):
            if entry.get(key):
                entry[key] = ids.setdefault(entry[key], f"<id{len(ids)}>")
        entry.pop("timestamp", None)
        if isinstance(entry.get("message"), dict):
            entry["message"].pop("timestamp", None)
        entries.append(entry)
    return entries


def _by_task(out: Path) -> dict[str, dict[str, Any]]:
    return {record["task_id"]: record for record in records(out)}


@pytest.mark.slow
def test_a_recorded_batch_replays_to_the_same_records_and_sessions(
    fake: Fake, tmp_path: Path
) -> None:
    recorded = _recorded(fake, tmp_path)
    sent = len(fake.server.requests)
    assert sent == 2 * len(IDS)
    for task_id in IDS:
        text = (recorded / "recordings" / f"{task_id}.jsonl").read_text()
        lines = [json.loads(line) for line in text.splitlines()]
        assert [line["type"] for line in lines] == ["meta", "exchange", "exchange"]
        assert [line["status"] for line in lines[1:]] == [200, 200]
        assert KEY not in text  # no key, no auth header
        assert lines[2]["body"]["messages"][-1]["role"] == "tool"  # the tool's result went back

    replayed = tmp_path / "replayed"
    result = run_batch(fake, tmp_path, str(tmp_path / "tasks.jsonl"), "-o", str(replayed),
                       "-j", "3", *MODEL, "--replay", str(recorded))  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert len(fake.server.requests) == sent  # nothing reached a model
    before, after = _by_task(recorded), _by_task(replayed)
    assert sorted(after) == IDS
    for task_id in IDS:
        assert after[task_id]["final_text"] == f"done {task_id}"
        assert _stable(after[task_id]) == _stable(before[task_id])
        assert _session(replayed / after[task_id]["session"], replayed) == _session(
            recorded / before[task_id]["session"], recorded
        )
    # The replay was recorded in turn: the same traffic.
    for task_id in IDS:
        assert (replayed / "recordings" / f"{task_id}.jsonl").read_text().count(
            '"type": "exchange"'
        ) == 2


@pytest.mark.slow
def test_a_changed_harness_diverges_at_its_request_without_a_retry(
    fake: Fake, tmp_path: Path
) -> None:
    recorded = _recorded(fake, tmp_path)
    changed = [
        {"id": "r1", "prompt": "mark r1", "workdir": "src"},
        {"id": "r2", "prompt": "mark r2 please", "workdir": "src"},  # request 1 differs
        # the bash call now fails, so the tool result sent back (request 2) differs
        {"id": "r3", "prompt": "mark r3", "workdir": "src", "setup": "mkdir marker.txt"},
        {"id": "r4", "prompt": "mark r4", "workdir": "src"},  # never recorded
    ]
    tasks = write_tasks(tmp_path / "changed.jsonl", changed)
    replayed = tmp_path / "replayed"
    result = run_batch(fake, tmp_path, str(tasks), "-o", str(replayed), *MODEL,
                       "--replay", str(recorded))  # fmt: skip
    assert result.returncode == 1, result.stderr
    lines = records(replayed)
    assert len(lines) == len(changed)  # one try each: a divergence is never retried
    after = _by_task(replayed)
    assert after["r1"]["status"] == "ok"
    for task_id in ("r2", "r3", "r4"):
        diverged = after[task_id]
        assert (diverged["status"], diverged["error_class"], diverged["final"]) == (
            "error",
            "replay_divergence",
            True,
        ), diverged
    assert after["r2"]["error"] == (
        "r2: replay divergence at request 1: $.messages[1].content[0].text: "
        'recorded "mark r2", sent "mark r2 please"'
    )
    assert re.match(
        r"^r3: replay divergence at request 2: \$\.messages\[3\]\.content: "
        r'recorded "\(no output\)", sent ".*Is a directory',
        after["r3"]["error"],
    ), after["r3"]["error"]
    assert after["r4"]["error"].startswith("r4: replay divergence: no recording ")
    assert len(fake.server.requests) == 2 * len(IDS)  # nothing reached a model


def test_a_replay_that_ends_before_its_recording_is_a_divergence(tmp_path: Path) -> None:
    def write(out: Path, exchanges: int) -> None:
        path = replay.recording_path(out, "t1")
        path.parent.mkdir(parents=True)
        lines = [{"type": "meta"}] + [{"type": "exchange", "index": n} for n in range(exchanges)]
        path.write_text("".join(json.dumps(line) + "\n" for line in lines))

    write(tmp_path / "recorded", 3)
    write(tmp_path / "replayed", 2)
    verdict = replay.shortfall(tmp_path / "replayed", "t1", tmp_path / "recorded")
    assert verdict is not None
    assert (verdict.error_class, verdict.disposition) == ("replay_divergence", "final")
    assert verdict.message == (
        "t1: replay divergence at request 3: the run ended after request 2; the recording has 3"
    )
    assert replay.shortfall(tmp_path / "recorded", "t1", tmp_path / "recorded") is None
    assert replay.shortfall(tmp_path / "replayed", "t1", None) is None  # not a replay


def test_a_replay_into_its_own_folder_is_refused(fake: Fake, tmp_path: Path) -> None:
    out = tmp_path / "recorded"
    out.mkdir()
    result = run_batch(fake, tmp_path, str(_tasks(tmp_path)), "-o", str(out), *MODEL,
                       "--replay", str(out))  # fmt: skip
    assert result.returncode == 3
    assert "replay into another folder than -o" in result.stderr
    assert not (out / "results.jsonl").exists() and fake.server.requests == []
