"""The hook for the `pi batch` row: runs benchmarks/batch.py when it exists and reads its JSON.

The contract with batch.py (written separately): it is run as

    python benchmarks/batch.py --ours OURS [--pi PI] [--quick] --json OUT

and writes to OUT an object with "ours" (our `pi batch`, tasks per minute per core against the
fake server), "pi" (a loop of pi's `pi -p` on the same tasks, same unit; null without --pi) and,
optionally, "floor". Any other key is ignored.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "batch.py"


@dataclass
class BatchFigures:
    """Tasks per minute per core: ours, pi's loop of `pi -p`, the floor (if batch.py has one)."""

    ours: float | None
    pi: float | None
    floor: float | None


def run_batch(
    ours: str, pi: str | None, quick: bool, script: Path = SCRIPT
) -> tuple[BatchFigures | None, str | None]:
    """Run batch.py if present: its figures, and a note for the report (or None)."""
    if not script.exists():
        return None, f"batch: {script.name} is not there yet; the `pi batch` row is not measured"
    with tempfile.TemporaryDirectory(prefix="pi-batch-") as temp:
        out = Path(temp) / "batch.json"
        command = [sys.executable, str(script), "--ours", ours, "--json", str(out)]
        command += ["--pi", pi] if pi else []
        command += ["--quick"] if quick else []
        done = subprocess.run(command, capture_output=True, text=True, timeout=3600)
        if done.returncode != 0 or not out.exists():
            detail = (done.stderr or done.stdout)[-500:]
            raise RuntimeError(f"{script.name} exited {done.returncode}: {detail}")
        data = json.loads(out.read_text())

    def number(key: str) -> float | None:
        """A figure from the JSON, or None."""
        value = data.get(key)
        return None if value is None else float(value)

    return BatchFigures(number("ours"), number("pi"), number("floor")), None
