"""`pi batch export OUT --format swebench|atif`: write the chosen attempts for other tools."""

from __future__ import annotations

import sys
from pathlib import Path

from pi_plugin_batch.chosen import chosen_records, pending_tasks
from pi_plugin_batch.swebench import predictions, write_predictions
from pi_plugin_batch.trajectory import write_trajectories


def export(
    out: Path, fmt: str, output: Path | None, *, model_name: str | None, json_list: bool
) -> str:
    """Write the export and return a line saying what was written."""
    pending = pending_tasks(out)
    if pending:
        print(f"not final yet, left out: {', '.join(pending)}", file=sys.stderr)
    if fmt == "swebench":
        rows = predictions(out, model_name)
        path = output or out / ("predictions.json" if json_list else "predictions.jsonl")
        write_predictions(rows, path, json_list)
        return f"{len(rows)} predictions: {path}"
    folder = output or out / "atif"
    written = write_trajectories(out, chosen_records(out), folder)
    return f"{len(written)} trajectories: {folder}"
