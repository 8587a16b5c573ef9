"""Which attempt of each task an export shows: the first `ok` one, else the last final one."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pi_plugin_batch.results import read_records
from pi_plugin_batch.summary import latest


def chosen_records(out: Path) -> list[dict[str, Any]]:
    """One final record per task, by task id: its first `ok` attempt, else its last attempt."""
    by_task: dict[str, list[dict[str, Any]]] = {}
    for (task_id, _), record in latest(read_records(out / "results.jsonl")).items():
        if record.get("final"):
            by_task.setdefault(task_id, []).append(record)
    chosen = []
    for task_id in sorted(by_task):
        attempts = sorted(by_task[task_id], key=lambda r: int(r["attempt"]))
        ok = [r for r in attempts if r["status"] == "ok"]
        chosen.append(ok[0] if ok else attempts[-1])
    return chosen


def pending_tasks(out: Path) -> list[str]:
    """Tasks with no final attempt yet (left out of exports)."""
    last = latest(read_records(out / "results.jsonl"))
    final = {task for (task, _), record in last.items() if record.get("final")}
    return sorted({task for task, _ in last} - final)
