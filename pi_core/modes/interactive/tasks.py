"""The REPL's background tasks: kept alive until done, their errors printed, never lost."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any


class Tasks:
    """Runs coroutines in the background; an error goes to `report`, and `after` runs last."""

    def __init__(self, report: Callable[[str], None], after: Callable[[], None]) -> None:
        self._report = report
        self._after = after
        self._running: set[asyncio.Task[Any]] = set()

    def spawn(self, coroutine: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        """Run `coroutine` in the background."""

        async def guarded() -> None:
            try:
                await coroutine
            except asyncio.CancelledError:
                raise
            except Exception as error:
                self._report(f"Error: {error}")
            finally:
                self._after()

        task = asyncio.ensure_future(guarded())
        self._running.add(task)
        task.add_done_callback(self._running.discard)
        return task


def shortcut_runner(
    handler: Callable[[Any], Any], ctx: Callable[[], Any], spawn: Callable[[Any], Any]
) -> Callable[[], None]:
    """A key binding's callable that runs a plugin shortcut's `handler(ctx)` as a task."""

    def run() -> None:
        async def call() -> None:
            result = handler(ctx())
            if asyncio.iscoroutine(result):
                await result

        spawn(call())

    return run
