"""One prompt on a served session, within its budget and time limit, reporting progress."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import anyio

from pi_plugin_mcp._pi import AgentSession
from pi_plugin_mcp.serve.progress import assistant_cost, milestone

Report = Callable[[str], Awaitable[None]]

COMPLETED, TIMEOUT, BUDGET = "completed", "timeout", "budget exceeded"


@dataclass
class Limits:
    """What one call may spend: dollars (`max_cost`) and seconds (`timeout_s`); None: no limit."""

    max_cost: float | None = None
    timeout_s: float | None = None


async def run_turn(session: AgentSession, prompt: str, limits: Limits, report: Report) -> str:
    """Prompt `session` and wait for the agent to finish; abort it when the call's cost passes
    `max_cost` or `timeout_s` elapses. Returns the status: completed, timeout, budget exceeded."""
    messages: asyncio.Queue[str | None] = asyncio.Queue()
    over_budget = asyncio.Event()
    spent = 0.0

    def listen(event: Any) -> None:
        nonlocal spent
        note = milestone(event)
        if note is not None:
            messages.put_nowait(note)
        spent += assistant_cost(event)
        if limits.max_cost is not None and spent > limits.max_cost:
            over_budget.set()

    async def send() -> None:
        while (note := await messages.get()) is not None:
            with contextlib.suppress(Exception):  # a client gone away must not stop the run
                await report(note)

    sender = asyncio.create_task(send())
    unsubscribe = session.subscribe(listen)
    running = asyncio.create_task(session.prompt(prompt))
    budget = asyncio.create_task(over_budget.wait())
    try:
        try:
            done, _ = await asyncio.wait(
                {running, budget}, timeout=limits.timeout_s, return_when=asyncio.FIRST_COMPLETED
            )
        except BaseException:  # the client cancelled the call: stop the run as Escape does
            with anyio.CancelScope(shield=True):
                await session.abort()
            raise
        status = BUDGET if over_budget.is_set() else COMPLETED if running in done else TIMEOUT
        if running not in done:
            await session.abort()
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await running
        else:
            running.result()  # a run that failed (no model, no key) raises here
        return status
    finally:
        budget.cancel()
        if not running.done():
            running.cancel()
        unsubscribe()
        messages.put_nowait(None)
        with anyio.CancelScope(shield=True):
            await sender  # every milestone goes out before the result does
