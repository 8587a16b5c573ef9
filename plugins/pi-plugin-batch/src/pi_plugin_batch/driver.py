"""The local pool: runs every unfinished attempt, N at a time, retrying what the table says."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field, replace
from typing import Any

from pi_plugin_batch.errors import Disposition
from pi_plugin_batch.progress import Progress
from pi_plugin_batch.results import ResultStore
from pi_plugin_batch.runner import AttemptSpec, Runner

EXIT_OK, EXIT_FAILED, EXIT_STOPPED = 0, 1, 2


@dataclass
class PoolOptions:
    """How many at once, how often to retry, the batch's spending limit."""

    jobs: int = 4
    retries: int = 3
    backoff_s: float = 2.0
    max_cost: float | None = None
    spent: float = 0.0  # already spent by earlier runs of this batch (resume)


@dataclass
class PoolState:
    """What the pool has seen so far."""

    spent: float
    failed: int = 0
    stopped: str | None = None
    tasks: list[asyncio.Task[None]] = field(default_factory=list)


async def run_pool(
    specs: list[AttemptSpec],
    runner: Runner,
    store: ResultStore,
    options: PoolOptions,
    progress: Progress,
) -> int:
    """Run `specs`; return the exit code (0 all ok, 1 some failed, 2 stopped)."""
    state = PoolState(spent=options.spent)
    limit = asyncio.Semaphore(options.jobs)
    stop = asyncio.Event()

    async def one(spec: AttemptSpec) -> None:
        async with limit:
            if stop.is_set():
                return
            await _attempt(spec, runner, store, options, state, progress, stop)

    workers = [asyncio.create_task(one(spec)) for spec in specs]
    waiter = asyncio.create_task(stop.wait())
    pending: set[asyncio.Future[Any]] = {*workers, waiter}
    while any(not w.done() for w in workers):
        _done, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
        if stop.is_set():
            for worker in workers:
                worker.cancel()
            await asyncio.gather(*workers, return_exceptions=True)
            break
    waiter.cancel()
    for worker in workers:
        if worker.done() and not worker.cancelled() and worker.exception() is not None:
            raise worker.exception()  # type: ignore[misc]
    progress.close()
    if state.stopped is not None:
        progress.message(f"batch stopped: {state.stopped}")
        return EXIT_STOPPED
    return EXIT_FAILED if state.failed else EXIT_OK


async def _attempt(
    spec: AttemptSpec,
    runner: Runner,
    store: ResultStore,
    options: PoolOptions,
    state: PoolState,
    progress: Progress,
    stop: asyncio.Event,
) -> None:
    for try_index in range(options.retries + 1):
        budget = _budget_for(spec, options, state)
        if budget is not None and budget <= 0:
            state.stopped = "the batch's --max-cost is spent"
            stop.set()
            return
        attempt = replace(spec, try_index=try_index, max_cost=budget)
        progress.started(attempt.name)
        result = await runner.run(attempt, progress.event)
        state.spent += float(result.record["cost"])
        verdict = result.verdict
        if verdict.disposition is Disposition.RETRY and try_index == options.retries:
            result.record["final"] = True  # out of retries: the infrastructure error is the result
        store.append(result.record)
        progress.finished(attempt.name, result.record, state.spent)
        if verdict.disposition is Disposition.STOP:
            state.stopped = f"{attempt.name}: {verdict.error_class}: {verdict.message}"
            stop.set()
            return
        if result.record["final"]:
            if result.record["status"] != "ok":
                state.failed += 1
            return
        await asyncio.sleep(options.backoff_s * (2**try_index))


def _budget_for(spec: AttemptSpec, options: PoolOptions, state: PoolState) -> float | None:
    """The task's limit (its own, else --task-max-cost), capped by what is left of the batch's."""
    own = spec.task.max_cost if spec.task.max_cost is not None else spec.max_cost
    limits = [own] if own is not None else []
    if options.max_cost is not None:
        limits.append(options.max_cost - state.spent)
    return min(limits) if limits else None
