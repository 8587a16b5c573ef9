"""`ctx.events`: a channel-based bus for plugins to talk to each other."""

from __future__ import annotations

import asyncio
import inspect
import logging
from collections.abc import Callable
from typing import Any

logger = logging.getLogger("pi.events")

Listener = Callable[[Any], Any]


class EventBus:
    """Plugins `on(channel, handler)` and `emit(channel, data)`; a handler error stops nothing."""

    def __init__(self, on_error: Callable[[str, BaseException], None] | None = None) -> None:
        self._listeners: dict[str, list[Listener]] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._on_error = on_error

    def on(self, channel: str, handler: Listener) -> Callable[[], None]:
        """Call `handler(data)` for every emit on `channel`; returns an unsubscribe function."""
        self._listeners.setdefault(channel, []).append(handler)

        def unsubscribe() -> None:
            handlers = self._listeners.get(channel, [])
            if handler in handlers:
                handlers.remove(handler)

        return unsubscribe

    def emit(self, channel: str, data: Any = None) -> None:
        """Deliver `data` to every handler of `channel`; async handlers run as tasks."""
        for handler in list(self._listeners.get(channel, ())):
            try:
                result = handler(data)
            except Exception as error:
                self._report(channel, error)
                continue
            if inspect.isawaitable(result):
                self._schedule(channel, result)

    def clear(self) -> None:
        """Remove every handler."""
        self._listeners.clear()

    async def drain(self) -> None:
        """Wait for the async handlers still running (tests and shutdown use it)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    def _schedule(self, channel: str, awaitable: Any) -> None:
        async def run() -> None:
            try:
                await awaitable
            except Exception as error:
                self._report(channel, error)

        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            asyncio.run(run())
            return
        task = loop.create_task(run())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _report(self, channel: str, error: BaseException) -> None:
        if self._on_error is not None:
            self._on_error(channel, error)
        else:
            logger.error("event bus handler for %r failed: %s", channel, error)
