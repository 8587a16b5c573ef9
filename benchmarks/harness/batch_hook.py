"""The hook for the `pi batch` row: runs benchmarks/batch.py when it exists and reads its JSON.

batch.py is written separately (with `pi batch`); this hook runs it as

    python benchmarks/batch.py --no-ray --json OUT [--pi PI] [--tasks 4 --serial 1]

(the last two with run.py's --quick) and reads from OUT:
- ours: "local_tasks_per_min_per_core" (`pi batch` with its local pool, tasks per minute per
  core against the fake server), or "ours" if the file names it so;
- pi: a loop of pi 0.73.1's `pi -p` on the same tasks, one at a time, so on one core:
  60 ÷ "pi_print_s_per_task", or "pi";
- floor: "floor", when batch.py measures one.
If batch.py's options or keys change, this is the one place to follow them.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SCRIPT = Path(__file__).resolve().parents[1] / "batch.py"


@dataclass
class BatchFigures:
    """Tasks per minute per core: ours, pi's loop of `pi -p`, the floor (if batch.py has one)."""

    ours: float | None
    pi: float | None
    floor: float | None


def figures_from(data: dict[str, Any]) -> BatchFigures:
    """The row's three figures from batch.py's JSON (see the module's docstring)."""

    def number(*keys: str) -> float | None:
        """The first of `keys` present, as a float."""
        for key in keys:
            if data.get(key) is not None:
                return float(data[key])
        return None

    pi = number("pi")
    seconds = number("pi_print_s_per_task")
    if pi is None and seconds:
        pi = 60 / seconds
    return BatchFigures(number("ours", "local_tasks_per_min_per_core"), pi, number("floor"))


def run_batch(
    pi: str | None, quick: bool, script: Path = SCRIPT
) -> tuple[BatchFigures | None, str | None]:
    """Run batch.py if present: its figures, and a note for the report (or None)."""
    if not script.exists():
        return None, f"batch: {script.name} is not there yet; the `pi batch` row is not measured"
    with tempfile.TemporaryDirectory(prefix="pi-batch-") as temp:
        out = Path(temp) / "batch.json"
        command = [sys.executable, str(script), "--no-ray", "--json", str(out)]
        command += ["--pi", pi] if pi else []
        command += ["--tasks", "4", "--serial", "1"] if quick else []
        done = subprocess.run(
            command, cwd=script.parent, capture_output=True, text=True, timeout=3600
        )
        if done.returncode != 0 or not out.exists():
            detail = (done.stderr or done.stdout)[-500:]
            raise RuntimeError(f"{script.name} exited {done.returncode}: {detail}")
        data = json.loads(out.read_text())
    return figures_from(data), None
