"""One attempt of one task, and the Runner interface a pool (local, or Ray) implements."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol

from pi_plugin_batch import replay
from pi_plugin_batch.agentdir import make_agent_dir
from pi_plugin_batch.budget import BUDGET_ENV, STATE_ENV, TASK_ENV
from pi_plugin_batch.child import ChildOutcome, ChildRun, run_child
from pi_plugin_batch.errors import OK, Disposition, Verdict, judge
from pi_plugin_batch.tasks import Task
from pi_plugin_batch.token_request import TOKENS_ENV, TokenRequest
from pi_plugin_batch.workspace import Workspace, WorkspaceError, prepare

EventSink = Callable[[str, dict[str, Any]], None]
GIT_LOCK = asyncio.Lock()  # one event loop per driver process


@dataclass(frozen=True)
class AttemptSpec:
    """Everything one attempt needs; plain data, so a remote worker can receive it."""

    task: Task
    attempt: int
    try_index: int
    out: Path
    task_base: Path
    user_agent_dir: Path
    model: str | None
    tools: list[str] | None
    max_cost: float | None
    timeout_s: float | None
    idle_timeout_s: float | None
    in_place: bool = False
    keep_work: bool = False
    extra_env: dict[str, str] = field(default_factory=dict)
    record: bool = False  # keep the provider traffic in OUT/recordings/
    replay_from: Path | None = None  # answer from this output folder's recordings
    token_request: TokenRequest | None = None  # ask for token ids / logprobs (--token-ids …)

    @property
    def name(self) -> str:
        """The attempt's file stem: `<id>` for attempt 1, `<id>.a<N>` after."""
        return self.task.id if self.attempt == 1 else f"{self.task.id}.a{self.attempt}"


@dataclass
class AttemptResult:
    """The record to append and the verdict that decides what happens next."""

    record: dict[str, Any]
    verdict: Verdict


class Runner(Protocol):
    """Runs attempts somewhere (this machine's processes, or a Ray cluster)."""

    async def run(self, spec: AttemptSpec, on_event: EventSink) -> AttemptResult:
        """Run one attempt to its end and return its record."""
        ...


class LocalRunner:
    """Runs each attempt as a `pi --mode json` child process on this machine."""

    async def run(self, spec: AttemptSpec, on_event: EventSink) -> AttemptResult:
        """Prepare the working copy, run pi, judge the ending, collect the artifacts."""
        return await run_attempt(spec, on_event)


async def run_attempt(spec: AttemptSpec, on_event: EventSink) -> AttemptResult:
    """One attempt, start to record."""
    started_at = datetime.now(UTC).isoformat()
    start = time.monotonic()
    artifacts = spec.out / "artifacts" / spec.name
    artifacts.mkdir(parents=True, exist_ok=True)
    session = spec.out / "sessions" / f"{spec.name}.jsonl"
    session.parent.mkdir(parents=True, exist_ok=True)
    session.write_bytes(b"")  # an empty file: pi starts a new session at this path
    state = artifacts / "state.json"
    state.unlink(missing_ok=True)
    unreplayable = replay.missing_recording(spec.name, spec.replay_from)
    if unreplayable is not None:
        record = attempt_record(spec, unreplayable, ChildOutcome(), started_at, start)
        return AttemptResult(record, unreplayable)
    try:
        workspace = await prepare_workspace(spec)
    except WorkspaceError as error:
        return error_result(spec, f"workspace: {error}", started_at, start)
    try:
        if spec.task.setup:
            await asyncio.to_thread(
                run_setup, spec.task.setup, workspace.path, artifacts / "setup.log"
            )
        agent = make_agent_dir(spec.user_agent_dir, spec.out / "agents" / spec.name,
                               spec.task.settings)  # fmt: skip
        run = ChildRun(
            args=_pi_args(spec, session),
            cwd=workspace.path,
            env=_env(spec, agent, state),
            stderr_path=artifacts / "stderr.txt",
            timeout_s=spec.task.timeout_s or spec.timeout_s,
            idle_timeout_s=spec.idle_timeout_s,
        )
        outcome = await run_child(run, lambda event: on_event(spec.task.id, event))
        stderr = (artifacts / "stderr.txt").read_text(errors="replace")[-4000:]
        verdict = replay.named(judge(outcome, state.exists(), stderr), spec.name)
        if verdict is OK:
            verdict = replay.shortfall(spec.out, spec.name, spec.replay_from) or verdict
        patch = await asyncio.to_thread(workspace.patch)
        (artifacts / "patch.diff").write_text(patch)
    except (OSError, RuntimeError) as error:
        return error_result(spec, str(error), started_at, start)
    finally:
        await release_workspace(spec, workspace)
    record = attempt_record(spec, verdict, outcome, started_at, start)
    record["patch"] = patch
    if record["final"]:  # a retried try's session and artifacts are replaced by the next try's
        record["session"] = str(session.relative_to(spec.out))
    record["artifacts"] = str(artifacts.relative_to(spec.out))
    return AttemptResult(record, verdict)


async def prepare_workspace(spec: AttemptSpec) -> Workspace:
    """Make the attempt's working copy (raises WorkspaceError)."""
    async with GIT_LOCK:  # worktree add/prune of one repository must not interleave
        return await asyncio.to_thread(
            prepare, spec.task, spec.task_base, spec.out / "work" / spec.name, spec.in_place
        )


async def release_workspace(spec: AttemptSpec, workspace: Workspace) -> None:
    """Remove the attempt's working copy, unless the batch keeps them."""
    if not spec.keep_work:
        async with GIT_LOCK:
            await asyncio.to_thread(workspace.remove)


def error_result(spec: AttemptSpec, message: str, started_at: str, start: float) -> AttemptResult:
    """An attempt ended by an infrastructure error (its record holds no run's outcome): retried."""
    verdict = Verdict("error", "infrastructure", Disposition.RETRY, message)
    return AttemptResult(attempt_record(spec, verdict, ChildOutcome(), started_at, start), verdict)


def _pi_args(spec: AttemptSpec, session: Path) -> list[str]:
    args = ["--mode", "json", "--session", str(session)]
    model = spec.task.model or spec.model
    if model:
        args += ["--model", model]
    tools = spec.task.tools if spec.task.tools is not None else spec.tools
    if tools is not None:
        args += ["--tools", ",".join(tools)] if tools else ["--no-tools"]
    for plugin in spec.task.plugins:
        args += ["-e", str((spec.task_base / plugin).resolve())]
    return [*args, spec.task.prompt_text(spec.task_base)]


def _env(spec: AttemptSpec, agent: Path, state: Path) -> dict[str, str]:
    env = {**os.environ, **spec.extra_env, **spec.task.env}
    env["PI_CODING_AGENT_DIR"] = str(agent)
    env["PI_OFFLINE"] = "1"
    env[STATE_ENV] = str(state)
    env.update(replay.traffic_env(spec.out, spec.name, spec.record, spec.replay_from))
    task = spec.task
    env[TASK_ENV] = json.dumps({"id": task.id, "repo": task.repo, "ref": task.ref,
                                "workdir": task.workdir, "attempt": spec.attempt,
                                "metadata": task.metadata})  # fmt: skip
    env.pop(TOKENS_ENV, None)
    if spec.token_request is not None:
        env[TOKENS_ENV] = spec.token_request.to_env()
    limit = spec.max_cost
    if limit is not None:
        env[BUDGET_ENV] = repr(limit)
    else:
        env.pop(BUDGET_ENV, None)
    return env


def run_setup(command: str, cwd: Path, log: Path) -> None:
    """Run a task's `setup` in its working copy, its output to `log`; raise if it fails."""
    with log.open("wb") as out:
        result = subprocess.run(["bash", "-c", command], cwd=cwd, stdout=out, stderr=out)
    if result.returncode != 0:
        raise RuntimeError(f"setup exited with status {result.returncode}")


def attempt_record(
    spec: AttemptSpec, verdict: Verdict, outcome: ChildOutcome, started_at: str, start: float
) -> dict[str, Any]:
    """The record of one attempt, as a results.jsonl line holds it (patch and paths unset)."""
    assistant = [m for m in outcome.messages if m.get("role") == "assistant"]
    usage = {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 0}
    cost = 0.0
    tool_calls = 0
    for message in assistant:
        reported = message.get("usage") or {}
        for key in usage:
            usage[key] += int(reported.get(key) or 0)
        cost += float((reported.get("cost") or {}).get("total") or 0)
        tool_calls += sum(1 for c in message.get("content") or [] if c.get("type") == "toolCall")
    final_text = ""
    if assistant:
        final_text = "".join(
            c.get("text", "") for c in assistant[-1].get("content") or [] if c.get("type") == "text"
        )
    models = sorted({f"{m.get('provider')}/{m.get('model')}" for m in assistant})
    return {
        "task_id": spec.task.id,
        "attempt": spec.attempt,
        "try": spec.try_index,
        "final": verdict.disposition is Disposition.FINAL,
        "status": verdict.status,
        "error_class": verdict.error_class,
        "error": verdict.message,
        "model": models[-1] if models else (spec.task.model or spec.model),
        "usage": usage,
        "cost": cost,
        "turns": len(assistant),
        "tool_calls": tool_calls,
        "wall_s": round(time.monotonic() - start, 3),
        "final_text": final_text,
        "patch": None,
        "session": None,
        "artifacts": None,
        "exit_code": outcome.exit_code,
        "repo": spec.task.repo,
        "ref": spec.task.ref,
        "metadata": spec.task.metadata,
        "host": socket.gethostname(),
        "pid": os.getpid(),
        "started_at": started_at,
        "ended_at": datetime.now(UTC).isoformat(),
    }
