"""`batch.json`: the frozen configuration, and the check that a resume runs the same batch."""

from __future__ import annotations

import hashlib
import json
import os
import platform
import sys
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

from pi_plugin_batch.tasks import Task


def sha256_file(path: Path) -> str | None:
    """The sha256 of a file, or None when it does not exist."""
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


def _version(name: str) -> str | None:
    try:
        return version(name)
    except PackageNotFoundError:
        return None


def freeze(
    args: dict[str, Any], tasks_path: Path, tasks: list[Task], models_json: Path
) -> dict[str, Any]:
    """The configuration to write to batch.json."""
    base = tasks_path.parent
    return {
        "args": args,
        "tasks_file": str(tasks_path),
        "tasks_sha256": sha256_file(tasks_path),
        "models_json": str(models_json),
        "models_sha256": sha256_file(models_json),
        "task_fingerprints": {t.id: t.fingerprint(base, args.get("model")) for t in tasks},
        "versions": {
            "python": platform.python_version(),
            "pi-harness": _version("pi-harness"),
            "pi-plugin-batch": _version("pi-plugin-batch"),
        },
        "executable": sys.executable,
    }


@dataclass(frozen=True)
class Drift:
    """Why the configuration on disk differs from this run's."""

    reasons: list[str]


def drift(old: dict[str, Any], new: dict[str, Any]) -> Drift:
    """What changed that would make a resumed batch mix two experiments."""
    reasons = []
    if old.get("models_sha256") != new.get("models_sha256"):
        reasons.append("models.json changed")
    if old.get("args", {}).get("model") != new.get("args", {}).get("model"):
        reasons.append("--model changed")
    old_tasks: dict[str, str] = old.get("task_fingerprints", {})
    for task_id, fingerprint in new.get("task_fingerprints", {}).items():
        if task_id in old_tasks and old_tasks[task_id] != fingerprint:
            reasons.append(f"task {task_id}: prompt, model, tools or settings changed")
    return Drift(reasons)


def write_json(path: Path, data: dict[str, Any]) -> None:
    """Write atomically (temporary file, fsync, rename)."""
    temporary = path.with_suffix(".tmp")
    with temporary.open("w") as file:
        json.dump(data, file, indent=2, sort_keys=True)
        file.write("\n")
        file.flush()
        os.fsync(file.fileno())
    os.replace(temporary, path)
