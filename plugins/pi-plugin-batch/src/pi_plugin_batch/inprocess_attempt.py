"""One attempt run through the SDK in this process: `rollout()` and `pi batch --in-process`.

The same working copy, setup, agent folder, budget gate, error table and record as the child
runner (`runner.run_attempt`), without a `pi` process: the session runs on the caller's loop.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pi_plugin_batch.agentdir import make_agent_dir
from pi_plugin_batch.budget import Budget
from pi_plugin_batch.errors import judge
from pi_plugin_batch.gate import BudgetGate
from pi_plugin_batch.inprocess import InProcessRun, run_in_process
from pi_plugin_batch.runner import (
    AttemptResult,
    AttemptSpec,
    attempt_record,
    error_result,
    prepare_workspace,
    release_workspace,
    run_setup,
)
from pi_plugin_batch.task_entry import TaskEntry
from pi_plugin_batch.workspace import WorkspaceError


@dataclass
class InProcessAttempt:
    """An attempt's result, the session's messages as pi's JSON, and its session file."""

    result: AttemptResult
    messages: list[dict[str, Any]]
    session_path: Path


async def run_attempt_in_process(
    spec: AttemptSpec, on_event: Callable[[Any], None] | None = None
) -> InProcessAttempt:
    """Prepare the working copy, run the session in this process, judge it, collect artifacts."""
    started_at, start = datetime.now(UTC).isoformat(), time.monotonic()
    artifacts = spec.out / "artifacts" / spec.name
    artifacts.mkdir(parents=True, exist_ok=True)
    session = spec.out / "sessions" / f"{spec.name}.jsonl"
    session.parent.mkdir(parents=True, exist_ok=True)
    session.unlink(missing_ok=True)  # a new session at this path
    gate = BudgetGate(Budget(spec.max_cost)) if spec.max_cost is not None else None

    def failed(message: str) -> InProcessAttempt:  # an infrastructure error: retried
        return InProcessAttempt(error_result(spec, message, started_at, start), [], session)

    try:
        workspace = await prepare_workspace(spec)
    except WorkspaceError as error:
        return failed(f"workspace: {error}")
    try:
        if spec.task.setup:
            await asyncio.to_thread(
                run_setup, spec.task.setup, workspace.path, artifacts / "setup.log"
            )
        agent = make_agent_dir(spec.user_agent_dir, spec.out / "agents" / spec.name,
                               spec.task.settings)  # fmt: skip
        extras = (gate, spec.token_request)
        plugins: list[Any] = [TaskEntry(spec), *(p for p in extras if p is not None)]
        run = InProcessRun(
            prompt=spec.task.prompt_text(spec.task_base), cwd=workspace.path, agent_dir=agent,
            session_path=session, model=spec.task.model or spec.model,
            tools=spec.task.tools if spec.task.tools is not None else spec.tools,
            plugins=plugins,
            extension_paths=[str((spec.task_base / p).resolve()) for p in spec.task.plugins],
            env=dict(spec.task.env), timeout_s=spec.task.timeout_s or spec.timeout_s,
            idle_timeout_s=spec.idle_timeout_s,
        )  # fmt: skip
        outcome, error_text = await run_in_process(run, on_event)
        (artifacts / "stderr.txt").write_text(error_text)
        verdict = judge(outcome, gate is not None and gate.stopped is not None, error_text)
        patch = await asyncio.to_thread(workspace.patch)
        (artifacts / "patch.diff").write_text(patch)
    except (OSError, RuntimeError) as error:
        return failed(str(error))
    finally:
        await release_workspace(spec, workspace)
    record = attempt_record(spec, verdict, outcome, started_at, start)
    record["patch"] = patch
    if record["final"]:  # a retried try's session and artifacts are replaced by the next try's
        record["session"] = os.path.relpath(session, spec.out)
    record["artifacts"] = os.path.relpath(artifacts, spec.out)
    return InProcessAttempt(AttemptResult(record, verdict), outcome.messages, session)
