"""The one-command benchmark harness runs and reports each requested metric (no timings)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

RUN = Path(__file__).resolve().parents[1] / "benchmarks" / "run.py"


def test_quick_run_reports_our_figures_for_each_requested_group(tmp_path: Path) -> None:
    """`run.py --quick --only version,print,history,hooks` prints a table and fills our column."""
    out = tmp_path / "results.json"
    completed = subprocess.run(
        [
            sys.executable,
            str(RUN),
            "--quick",
            "--only",
            "version,print,history,hooks",
            "--json",
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert completed.returncode == 0, completed.stderr[-3000:]
    rows = json.loads(out.read_text())["rows"]
    assert {row["key"] for row in rows} == {"version", "print", "history", "hooks"}
    for row in rows:
        assert row["ours"] is not None and row["ours"] > 0, row
        assert row["pi"] is None, row
        assert row["metric"] in completed.stdout
    metrics = " ".join(row["metric"] for row in rows)
    for expected in (
        "`pi --version` wall",
        "`pi --version` peak RSS",
        "`pi -p` 2 turns",
        "hook dispatch per impl: notify, 100 sync plugins",
        "RPC 10-prompt session (3 tool calls each, 80 messages): total wall",
        "RPC per-request cost, last 3 prompts (~80 messages; median)",
    ):
        assert expected in metrics
    assert "| metric" in completed.stdout and "pi 0.73.1" in completed.stdout
