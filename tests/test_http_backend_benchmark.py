"""benchmarks/http_backend.py runs and reports a figure for each stack it measures."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "http_backend.py"


def test_quick_run_reports_each_stack() -> None:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--requests", "5", "--rounds", "1"],
        capture_output=True, text=True, timeout=120, check=True,
    )  # fmt: skip
    rows = dict(re.findall(r"^(.+?)\s{2,}([\d.]+) ms CPU/request$", done.stdout, re.M))
    assert {"httpx, anyio backend", "httpx, net.py backend"} <= set(rows)
    assert all(float(value) > 0 for value in rows.values())
