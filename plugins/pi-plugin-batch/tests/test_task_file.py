"""The task file is checked before anything runs; bad lines are named by number (exit 3)."""

from __future__ import annotations

import json
from pathlib import Path

from batch_helpers import Fake, run_batch
from pi_plugin_batch.tasks import TaskFileError, load_tasks


def test_every_bad_line_is_reported_with_its_number_and_nothing_runs(
    fake: Fake, tmp_path: Path
) -> None:
    lines = [
        json.dumps({"id": "ok1", "prompt": "mark ok1"}),
        "{not json",
        json.dumps({"id": "two", "prompt": "x", "prompt_file": "p.txt"}),
        json.dumps({"id": "ok1", "prompt": "again"}),
        "",
        json.dumps({"id": "bad id!", "prompt": "x"}),
        json.dumps({"id": "r", "prompt": "x", "ref": "main"}),
        json.dumps({"id": "u", "prompt": "x", "colour": "red"}),
        json.dumps({"id": "f", "prompt_file": "missing.txt"}),
        json.dumps({"id": "c", "prompt": "x", "max_cost": -1}),
    ]
    tasks = tmp_path / "tasks.jsonl"
    tasks.write_text("\n".join(lines) + "\n")
    result = run_batch(fake, tmp_path, str(tasks), "-o", str(tmp_path / "out"))
    assert result.returncode == 3, result.stderr
    for number in (2, 3, 4, 6, 7, 8, 9, 10):
        assert f"tasks.jsonl:line {number}:" in result.stderr
    assert "line 1:" not in result.stderr and "line 5:" not in result.stderr
    assert "duplicate id 'ok1' (first on line 1)" in result.stderr
    assert "colour" in result.stderr and "prompt_file not found: missing.txt" in result.stderr
    assert fake.server.requests == []
    assert not (tmp_path / "out" / "results.jsonl").exists()


def test_a_task_file_with_all_fields_parses(tmp_path: Path) -> None:
    (tmp_path / "p.txt").write_text("from a file")
    task = {
        "id": "full-1", "prompt_file": "p.txt", "repo": "r", "ref": "v1", "model": "a/b",
        "tools": ["bash"], "settings": {"x": 1}, "plugins": ["gate.py"], "env": {"A": "1"},
        "setup": "true", "max_cost": 0.5, "timeout_s": 60, "metadata": {"k": [1]},
    }  # fmt: skip
    (tmp_path / "t.jsonl").write_text(json.dumps(task) + "\n")
    (parsed,) = load_tasks(tmp_path / "t.jsonl")
    assert parsed.prompt_text(tmp_path) == "from a file"
    assert parsed.max_cost == 0.5 and parsed.metadata == {"k": [1]}


def test_an_empty_task_file_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "t.jsonl").write_text("\n")
    try:
        load_tasks(tmp_path / "t.jsonl")
    except TaskFileError as error:
        assert "no tasks" in str(error)
    else:
        raise AssertionError("an empty task file was accepted")


def test_an_unknown_option_is_a_usage_error(fake: Fake, tmp_path: Path) -> None:
    tasks = tmp_path / "t.jsonl"
    tasks.write_text(json.dumps({"id": "a", "prompt": "mark a"}) + "\n")
    result = run_batch(fake, tmp_path, str(tasks), "-o", str(tmp_path / "o"), "--bogus")
    assert result.returncode == 3
    assert "No such option '--bogus'" in result.stderr
