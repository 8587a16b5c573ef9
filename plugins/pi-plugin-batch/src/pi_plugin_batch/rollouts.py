"""`rollout()`: one task run in this process, returning its record and its messages' tokens.

For RL frameworks: the same task format, working copy, error table and budget as `pi batch`,
but the session runs through the SDK in the caller's event loop, and the assistant messages
keep the token ids and logprobs the server returned (vLLM's `return_token_ids`).
"""

from __future__ import annotations

import asyncio
import os
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pi_core import agent_dir as default_agent_dir
from pi_core.messages import TokenData
from pi_plugin_batch.agentdir import make_agent_dir
from pi_plugin_batch.budget import Budget
from pi_plugin_batch.child import ChildOutcome
from pi_plugin_batch.errors import Disposition, Verdict, judge
from pi_plugin_batch.gate import BudgetGate
from pi_plugin_batch.inprocess import InProcessRun, run_in_process
from pi_plugin_batch.runner import GIT_LOCK, AttemptSpec, attempt_record, run_setup
from pi_plugin_batch.task_entry import TaskEntry
from pi_plugin_batch.tasks import Task
from pi_plugin_batch.token_request import TokenRequest
from pi_plugin_batch.workspace import WorkspaceError, prepare


@dataclass
class Rollout:
    """One task's outcome: its record (a results.jsonl line) and its messages as pi's JSON."""

    record: dict[str, Any]
    messages: list[dict[str, Any]]
    session_path: Path

    @property
    def assistant_messages(self) -> list[dict[str, Any]]:
        """The assistant messages, in order."""
        return [m for m in self.messages if m.get("role") == "assistant"]

    @property
    def token_data(self) -> list[TokenData | None]:
        """Each assistant message's token ids and logprobs (None where the server sent none)."""
        found = [m.get("tokenData") for m in self.assistant_messages]
        return [TokenData.model_validate(data) if data else None for data in found]


async def rollout(
    task: Task | Mapping[str, Any],
    *,
    out: str | Path | None = None,
    task_base: str | Path = ".",
    agent_dir: str | Path | None = None,
    model: str | None = None,
    tools: Sequence[str] | None = None,
    max_cost: float | None = None,
    timeout_s: float | None = None,
    idle_timeout_s: float | None = 300.0,
    attempt: int = 1,
    in_place: bool = False,
    keep_work: bool = False,
    token_ids: bool = False,
    logprobs: int | None = None,
    on_event: Callable[[Any], None] | None = None,
) -> Rollout:
    """Run one task in its own working copy in this process; return its record and messages."""
    task = task if isinstance(task, Task) else Task.model_validate(dict(task))
    out_dir = Path(out) if out is not None else Path(tempfile.mkdtemp(prefix="pi-rollout-"))
    spec = AttemptSpec(
        task=task, attempt=attempt, try_index=0, out=out_dir.resolve(),
        task_base=Path(task_base).resolve(),
        user_agent_dir=Path(agent_dir) if agent_dir is not None else default_agent_dir(),
        model=model, tools=list(tools) if tools is not None else None,
        max_cost=task.max_cost if task.max_cost is not None else max_cost,
        timeout_s=task.timeout_s or timeout_s, idle_timeout_s=idle_timeout_s,
        in_place=in_place, keep_work=keep_work,
    )  # fmt: skip
    request = TokenRequest(token_ids, logprobs) if token_ids or logprobs is not None else None
    return await _run(spec, request, on_event)


def rollout_sync(task: Task | Mapping[str, Any], **options: Any) -> Rollout:
    """`rollout()` for callers without an event loop (it runs one with asyncio.run)."""
    return asyncio.run(rollout(task, **options))


async def _run(
    spec: AttemptSpec, request: TokenRequest | None, on_event: Callable[[Any], None] | None
) -> Rollout:
    started_at, start = datetime.now(UTC).isoformat(), time.monotonic()
    artifacts = spec.out / "artifacts" / spec.name
    artifacts.mkdir(parents=True, exist_ok=True)
    session = spec.out / "sessions" / f"{spec.name}.jsonl"
    session.parent.mkdir(parents=True, exist_ok=True)
    session.unlink(missing_ok=True)  # a new session at this path
    gate = BudgetGate(Budget(spec.max_cost)) if spec.max_cost is not None else None
    try:
        async with GIT_LOCK:
            workspace = await asyncio.to_thread(
                prepare, spec.task, spec.task_base, spec.out / "work" / spec.name, spec.in_place
            )
    except WorkspaceError as error:
        verdict = Verdict("error", "infrastructure", Disposition.RETRY, f"workspace: {error}")
        record = attempt_record(spec, verdict, ChildOutcome(), started_at, start)
        return Rollout(record, [], session)
    try:
        if spec.task.setup:
            await asyncio.to_thread(
                run_setup, spec.task.setup, workspace.path, artifacts / "setup.log"
            )
        agent = make_agent_dir(spec.user_agent_dir, spec.out / "agents" / spec.name,
                               spec.task.settings)  # fmt: skip
        plugins: list[Any] = [TaskEntry(spec), *(p for p in (gate, request) if p is not None)]
        run = InProcessRun(
            prompt=spec.task.prompt_text(spec.task_base), cwd=workspace.path, agent_dir=agent,
            session_path=session, model=spec.task.model or spec.model,
            tools=spec.task.tools if spec.task.tools is not None else spec.tools,
            plugins=plugins,
            extension_paths=[str((spec.task_base / p).resolve()) for p in spec.task.plugins],
            env=dict(spec.task.env), timeout_s=spec.timeout_s,
            idle_timeout_s=spec.idle_timeout_s,
        )  # fmt: skip
        outcome, error_text = await run_in_process(run, on_event)
        (artifacts / "stderr.txt").write_text(error_text)
        verdict = judge(outcome, gate is not None and gate.stopped is not None, error_text)
        patch = await asyncio.to_thread(workspace.patch)
        (artifacts / "patch.diff").write_text(patch)
    except (OSError, RuntimeError) as error:
        verdict = Verdict("error", "infrastructure", Disposition.RETRY, str(error))
        record = attempt_record(spec, verdict, ChildOutcome(), started_at, start)
        return Rollout(record, [], session)
    finally:
        if not spec.keep_work:
            async with GIT_LOCK:
                await asyncio.to_thread(workspace.remove)
    record = attempt_record(spec, verdict, outcome, started_at, start)
    record["patch"] = patch
    if record["final"]:
        record["session"] = os.path.relpath(session, spec.out)
    record["artifacts"] = os.path.relpath(artifacts, spec.out)
    return Rollout(record, outcome.messages, session)
