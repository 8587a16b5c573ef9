"""`pi batch open OUT ID`: recreate a finished attempt's working copy and continue its session.

A batch session's header names the working copy it ran in, which the batch deleted when the
attempt ended. pi refuses (`-p`) or asks (the REPL) when a session's folder is gone, so this
puts the folder back first: the task's worktree at `ref` (or copy of `workdir`) with the
attempt's `patch.diff` applied.
"""

from __future__ import annotations

import json
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pi_plugin_batch.plugin import TASK_ENTRY
from pi_plugin_batch.tasks import Task
from pi_plugin_batch.workspace import WorkspaceError, prepare


class ReopenError(Exception):
    """The attempt cannot be reopened (no session, no batch.json, the patch does not apply)."""


@dataclass(frozen=True)
class Reopened:
    """The attempt's session, the working copy made for it, and how pi should open it."""

    session: Path
    workdir: Path
    created: bool  # False: the folder was already there and is used as it is
    fork: bool  # True: the copy is not where the session says, so pi forks it into the copy


def attempt_name(task_id: str, attempt: int) -> str:
    """The attempt's file stem, as the batch names it (`<id>`, `<id>.a2` …)."""
    return task_id if attempt == 1 else f"{task_id}.a{attempt}"


def reopen(out: Path, task_id: str, attempt: int = 1, where: Path | None = None) -> Reopened:
    """Recreate the attempt's working copy (at `where`, else `OUT/work/<name>`)."""
    out = out.resolve()
    name = attempt_name(task_id, attempt)
    session = out / "sessions" / f"{name}.jsonl"
    if not session.is_file():
        raise ReopenError(f"no session {session}")
    entries = _entries(session)
    stored_cwd = str(entries[0].get("cwd") or "") if entries else ""
    target = (where if where is not None else out / "work" / name).resolve()
    fork = str(target) != stored_cwd
    if target.exists():
        return Reopened(session, target, created=False, fork=fork)
    task = _task(entries, task_id)
    try:
        prepare(task, _task_base(out), target, in_place=False)
    except WorkspaceError as error:
        raise ReopenError(f"cannot recreate the working copy: {error}") from error
    _apply(out / "artifacts" / name / "patch.diff", target)
    return Reopened(session, target, created=True, fork=fork)


def pi_args(reopened: Reopened, extra: list[str]) -> list[str]:
    """pi's arguments: `--session FILE` where the session ran, else `--fork FILE` (a new file)."""
    return ["--fork" if reopened.fork else "--session", str(reopened.session), *extra]


def _entries(session: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in session.read_text().splitlines() if line.strip()]


def _task(entries: list[dict[str, Any]], task_id: str) -> Task:
    """The task's place (repo, ref, workdir) as the session's `batch_task` entry recorded it."""
    data = next((e.get("data") or {} for e in entries if e.get("customType") == TASK_ENTRY), None)
    if data is None:
        raise ReopenError(f"the session of {task_id} has no {TASK_ENTRY} entry")
    where = {key: data.get(key) for key in ("repo", "ref", "workdir")}
    return Task.model_validate({"id": task_id, "prompt": "", **where})


def _task_base(out: Path) -> Path:
    """The task file's folder, which the task's relative paths start from."""
    try:
        frozen = json.loads((out / "batch.json").read_text())
    except (OSError, ValueError) as error:
        raise ReopenError(f"cannot read {out / 'batch.json'}: {error}") from error
    return Path(frozen["tasks_file"]).parent


def _apply(patch: Path, target: Path) -> None:
    """Apply the attempt's changes (a `git diff --binary`); nothing when it changed nothing."""
    if not patch.is_file() or not patch.read_text().strip():
        return
    result = subprocess.run(
        ["git", "apply", "--binary", "--whitespace=nowarn", str(patch)],
        cwd=target, capture_output=True, text=True,
    )  # fmt: skip
    if result.returncode != 0:
        raise ReopenError(f"{patch} does not apply in {target}: {result.stderr.strip()}")
