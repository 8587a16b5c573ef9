"""SWE-bench predictions: `instance_id`, `model_name_or_path`, `model_patch` per task."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pi_plugin_batch.chosen import chosen_records


def predictions(out: Path, model_name: str | None = None) -> list[dict[str, str]]:
    """One prediction per task with a final attempt; `model_name` replaces the record's model."""
    return [_prediction(record, model_name) for record in chosen_records(out)]


def _prediction(record: dict[str, Any], model_name: str | None) -> dict[str, str]:
    return {
        "instance_id": record["task_id"],
        "model_name_or_path": model_name or record.get("model") or "pi",
        "model_patch": record.get("patch") or "",
    }


def write_predictions(rows: list[dict[str, str]], path: Path, as_list: bool) -> None:
    """Write JSONL (one prediction a line), or one JSON list when `as_list`."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if as_list:
        path.write_text(json.dumps(rows, indent=2) + "\n")
    else:
        path.write_text("".join(json.dumps(row) + "\n" for row in rows))
