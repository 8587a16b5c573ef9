"""Hook dispatch cost per impl per event, with 1, 10 and 100 plugins, sync and async impls.

    python benchmarks/dispatch.py [--events 20000]

Budget (DESIGN.md §8): at most 5 µs per sync impl per event.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from pi_core import hookimpl, make_tool_call_event
from pi_core.events import SessionStartEvent
from pi_core.plugins.manager import PluginManager
from pi_core.tools import BashToolInput

BUDGET_US = 5.0


def make_plugin(index: int, asynchronous: bool) -> Any:
    """A plugin with a session_start and a tool_call impl that do nothing."""
    if asynchronous:

        class AsyncPlugin:
            @hookimpl
            async def session_start(self, event: Any, ctx: Any) -> None:
                """Do nothing."""
                return None

            @hookimpl
            async def tool_call(self, event: Any, ctx: Any) -> None:
                """Do nothing."""
                return None

        return AsyncPlugin()

    class SyncPlugin:
        @hookimpl
        def session_start(self, event: Any, ctx: Any) -> None:
            """Do nothing."""
            return None

        @hookimpl
        def tool_call(self, event: Any, ctx: Any) -> None:
            """Do nothing."""
            return None

    return SyncPlugin()


def manager_with(count: int, asynchronous: bool) -> PluginManager:
    """A plugin manager with `count` do-nothing plugins registered inline."""
    manager = PluginManager(".")
    for index in range(count):
        manager.register_inline(make_plugin(index, asynchronous), f"p{index}")
    return manager


async def per_impl_us(
    dispatch: Callable[[], Awaitable[Any]], impls: int, events: int, rounds: int = 5
) -> float:
    """Median over rounds of (time per event / impls), in microseconds."""
    samples = []
    for _ in range(rounds):
        start = time.perf_counter()
        for _ in range(events):
            await dispatch()
        elapsed = time.perf_counter() - start
        samples.append(elapsed / events / impls * 1e6)
    return statistics.median(samples)


async def baseline_us(events: int) -> float:
    """Cost of dispatching with no impls at all (the fixed per-event overhead)."""
    manager = PluginManager(".")
    event = SessionStartEvent()
    start = time.perf_counter()
    for _ in range(events):
        await manager.dispatcher.notify("session_start", event)
    return (time.perf_counter() - start) / events * 1e6


@dataclass
class DispatchResult:
    """Per-impl cost of one event for `plugins` plugins whose impls are sync or async."""

    plugins: int
    asynchronous: bool
    notify_us: float
    tool_call_us: float


async def measure_dispatch(
    events: int, counts: tuple[int, ...] = (1, 10, 100)
) -> list[DispatchResult]:
    """Time notify (session_start) and tool_call dispatch for each plugin count, sync and async."""
    results = []
    for count in counts:
        for asynchronous in (False, True):
            manager = manager_with(count, asynchronous)
            start_event = SessionStartEvent()
            call_event = make_tool_call_event("bash", "c1", BashToolInput(command="ls"))
            n = max(events // count, 200)
            notify = await per_impl_us(
                lambda m=manager, e=start_event: m.dispatcher.notify("session_start", e), count, n
            )
            block = await per_impl_us(
                lambda m=manager, e=call_event: m.dispatcher.tool_call(e), count, n
            )
            results.append(DispatchResult(count, asynchronous, notify, block))
    return results


async def main(events: int) -> None:
    """Print the fixed overhead and the per-impl table, and the verdict on the budget."""
    print(f"fixed overhead per event, no impls: {await baseline_us(events):.2f} µs")
    print(f"{'plugins':>8} {'impls':>6} {'notify µs/impl':>15} {'tool_call µs/impl':>18}")
    worst_sync = 0.0
    for result in await measure_dispatch(events):
        kind = "async" if result.asynchronous else "sync"
        print(
            f"{result.plugins:>8} {kind:>6} {result.notify_us:>15.2f} {result.tool_call_us:>18.2f}"
        )
        if not result.asynchronous:
            worst_sync = max(worst_sync, result.notify_us, result.tool_call_us)
    verdict = "within" if worst_sync <= BUDGET_US else "OVER"
    print(f"worst sync cost {worst_sync:.2f} µs/impl: {verdict} the {BUDGET_US} µs budget")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=20000)
    asyncio.run(main(parser.parse_args().events))
