"""`pi batch status` and `pi batch summary`: read an output folder's results.jsonl."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from pi_plugin_batch.results import read_records


def latest(records: list[dict[str, Any]]) -> dict[tuple[str, int], dict[str, Any]]:
    """The last record of each (task, attempt)."""
    out: dict[tuple[str, int], dict[str, Any]] = {}
    for record in records:
        out[(record["task_id"], int(record["attempt"]))] = record
    return out


def status_text(out: Path) -> str:
    """How far the batch is: final attempts of the total, and the attempts not final yet."""
    config = json.loads((out / "batch.json").read_text())
    expected = len(config.get("task_fingerprints", {})) * int(config["args"].get("attempts", 1))
    last = latest(read_records(out / "results.jsonl"))
    final = [r for r in last.values() if r.get("final")]
    pending = sorted(f"{t}#{a}" for (t, a), r in last.items() if not r.get("final"))
    statuses = Counter(r["status"] for r in final)
    lines = [f"{len(final)}/{expected} attempts final"]
    lines += [f"  {status}: {count}" for status, count in sorted(statuses.items())]
    if pending:
        lines.append("not final (will run again on resume): " + ", ".join(pending))
    return "\n".join(lines)


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))
    return ordered[index]


def summary_data(out: Path) -> dict[str, Any]:
    """Final attempts by status, error class and model; cost, tokens, p50/p95 wall time."""
    final = [r for r in latest(read_records(out / "results.jsonl")).values() if r.get("final")]
    walls = [float(r["wall_s"]) for r in final]
    return {
        "attempts": len(final),
        "by_status": dict(Counter(r["status"] for r in final)),
        "by_error_class": dict(Counter(r["error_class"] for r in final if r["error_class"])),
        "by_model": dict(Counter(str(r.get("model")) for r in final)),
        "cost": round(sum(float(r["cost"]) for r in final), 6),
        "tokens": {k: sum(int(r["usage"].get(k, 0)) for r in final)
                   for k in ("input", "output", "cacheRead", "cacheWrite", "totalTokens")},
        "wall_s_p50": _percentile(walls, 0.5) if walls else None,
        "wall_s_p95": _percentile(walls, 0.95) if walls else None,
    }  # fmt: skip


def summary_text(data: dict[str, Any]) -> str:
    """The summary as lines for a terminal."""
    lines = [f"attempts: {data['attempts']}   cost: ${data['cost']:.4f}"]
    for title, key in (("status", "by_status"), ("error class", "by_error_class"),
                       ("model", "by_model")):  # fmt: skip
        lines.append(f"by {title}:")
        lines += [f"  {name}: {count}" for name, count in sorted(data[key].items())]
    tokens = data["tokens"]
    lines.append(
        f"tokens: {tokens['input']} in, {tokens['output']} out, {tokens['totalTokens']} total"
    )
    if data["wall_s_p50"] is not None:
        lines.append(f"wall time: p50 {data['wall_s_p50']:.2f}s  p95 {data['wall_s_p95']:.2f}s")
    return "\n".join(lines)
