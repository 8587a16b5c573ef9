"""A whole `pi batch` run: check the tasks, freeze or verify the configuration, run the pool."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pi_core import agent_dir
from pi_plugin_batch.driver import PoolOptions, run_pool
from pi_plugin_batch.frozen import drift, freeze, write_json
from pi_plugin_batch.progress import Progress
from pi_plugin_batch.results import ResultStore, final_attempts, read_records
from pi_plugin_batch.runner import AttemptSpec, LocalRunner, Runner
from pi_plugin_batch.tasks import TaskFileError, load_tasks
from pi_plugin_batch.token_request import TokenRequest
from pi_plugin_batch.workspace import prune_stale


class BatchConfigError(Exception):
    """The command cannot run as given (bad task lines, a changed batch without --force)."""


async def run_batch(tasks_file: Path, out: Path, options: dict[str, Any]) -> int:
    """Run (or resume) the batch; return its exit code."""
    tasks_file = tasks_file.resolve()
    try:
        tasks = load_tasks(tasks_file)
    except TaskFileError as error:
        raise BatchConfigError(f"bad task file\n{error}") from error
    out = out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    user_agent = agent_dir()
    args = {k: v for k, v in options.items() if k not in ("force",)}
    args["tools"] = _tools(options.get("tools"))
    replay_from = options.get("replay_from")
    replay_from = replay_from.resolve() if replay_from is not None else None
    if replay_from == out:  # each attempt's recording is rewritten as it runs
        raise BatchConfigError(f"--replay {replay_from}: replay into another folder than -o")
    args["replay_from"] = str(replay_from) if replay_from is not None else None
    config = freeze(args, tasks_file, tasks, user_agent / "models.json")
    frozen = out / "batch.json"
    if frozen.exists():
        changed = drift(json.loads(frozen.read_text()), config).reasons
        if changed and not options.get("force"):
            raise BatchConfigError(
                f"{out} holds a different batch ({'; '.join(changed)}); use --force to resume it"
            )
    write_json(frozen, config)

    base = tasks_file.parent
    repos = {(base / t.repo).resolve() for t in tasks if t.repo}
    prune_stale(out / "work", repos)
    runner = _runner(options)
    store = ResultStore(out / "results.jsonl")
    records = read_records(store.path)
    done = final_attempts(records)
    spent = sum(float(r.get("cost") or 0) for r in records)
    specs = [
        AttemptSpec(
            task=task,
            attempt=attempt,
            try_index=0,
            out=out,
            task_base=base,
            user_agent_dir=user_agent,
            model=options.get("model"),
            tools=args["tools"],
            max_cost=options.get("task_max_cost"),
            timeout_s=options.get("timeout_s"),
            idle_timeout_s=options.get("idle_timeout_s"),
            in_place=bool(options.get("in_place")),
            keep_work=bool(options.get("keep_work")),
            record=bool(options.get("record")),
            replay_from=replay_from,
            token_request=_token_request(options),
        )
        for attempt in range(1, int(options.get("attempts") or 1) + 1)
        for task in tasks
        if (task.id, attempt) not in done
    ]
    total = len(tasks) * int(options.get("attempts") or 1)
    progress = Progress(total, done=total - len(specs))
    if store.repaired:
        progress.message("results.jsonl: cut a torn last line left by an interrupted run")
    slots: int = getattr(runner, "slots", 4)  # Ray: what the cluster's CPUs hold
    pool = PoolOptions(
        jobs=int(options.get("jobs") or slots),
        retries=int(options.get("retries", 3)),
        backoff_s=float(options.get("backoff_s", 2.0)),
        max_cost=options.get("max_cost"),
        spent=spent,
    )
    try:
        code = await run_pool(specs, runner, store, pool, progress)
    finally:
        store.close()
        if hasattr(runner, "close"):
            runner.close()
    if code == 0 and _any_failed(out):
        code = 1
    return code


def _runner(options: dict[str, Any]) -> Runner:
    """The local pool's runner (children, or in-process), or the Ray backend (`--ray`)."""
    if options.get("in_process"):
        from pi_plugin_batch.inprocess_runner import InProcessRunner

        return InProcessRunner()
    if not options.get("ray"):
        return LocalRunner()
    from pi_plugin_batch.ray_runner import DEFAULT_CPUS, RayRunner, RayUnavailable

    try:
        return RayRunner(str(options["ray"]), float(options.get("ray_cpus") or DEFAULT_CPUS))
    except RayUnavailable as error:
        raise BatchConfigError(str(error)) from error


def _token_request(options: dict[str, Any]) -> TokenRequest | None:
    """What the children ask for with --token-ids / --logprobs N (nothing by default)."""
    token_ids, logprobs = bool(options.get("token_ids")), options.get("logprobs")
    return TokenRequest(token_ids, logprobs) if token_ids or logprobs is not None else None


def _tools(raw: str | None) -> list[str] | None:
    if raw is None:
        return None
    return [name.strip() for name in raw.split(",") if name.strip()]


def _any_failed(out: Path) -> bool:
    """Whether a final attempt (of this run or an earlier one) did not end ok."""
    last: dict[tuple[str, int], dict[str, Any]] = {}
    for record in read_records(out / "results.jsonl"):
        last[(record["task_id"], int(record["attempt"]))] = record
    return any(r.get("final") and r.get("status") != "ok" for r in last.values())
