"""Cooperative cancellation: an AbortController owns an AbortSignal that tools and streams watch."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TypeVar

T = TypeVar("T")


class AbortError(Exception):
    """Raised by `AbortSignal.raise_if_aborted` once the operation was aborted."""


class AbortSignal:
    """Tells a running operation that it should stop; can be polled, awaited or subscribed to."""

    def __init__(self) -> None:
        self._aborted = False
        self._reason: str | None = None
        self._listeners: list[Callable[[], None]] = []
        self._waiters: list[asyncio.Event] = []

    @property
    def aborted(self) -> bool:
        """Return whether abort was requested."""
        return self._aborted

    @property
    def reason(self) -> str | None:
        """Return the reason given to `abort`, if any."""
        return self._reason

    def raise_if_aborted(self) -> None:
        """Raise `AbortError` if abort was requested."""
        if self._aborted:
            raise AbortError(self._reason or "Operation aborted")

    def add_listener(self, listener: Callable[[], None]) -> Callable[[], None]:
        """Call `listener` once on abort (at once if already aborted); return an unsubscribe."""
        if self._aborted:
            listener()
            return lambda: None
        self._listeners.append(listener)

        def remove() -> None:
            if listener in self._listeners:
                self._listeners.remove(listener)

        return remove

    async def wait(self) -> None:
        """Wait until abort is requested."""
        if self._aborted:
            return
        event = asyncio.Event()
        self._waiters.append(event)
        try:
            await event.wait()
        finally:
            self._waiters.remove(event)

    async def race(self, awaitable: Awaitable[T]) -> T:
        """Await `awaitable`, but cancel it and raise `AbortError` as soon as abort is requested
        (at once, the awaitable cancelled unstarted, when it already was)."""
        if self._aborted:
            asyncio.ensure_future(awaitable).cancel()  # no "never awaited" warning
            self.raise_if_aborted()
        # The awaiting task itself is cancelled on abort, as `asyncio.timeout` does: no task of
        # its own for the work, nor one waiting for the abort (this runs for every tool call).
        task = asyncio.current_task()
        assert task is not None
        interrupted = False

        def interrupt() -> None:
            nonlocal interrupted
            interrupted = True
            task.cancel()

        self._listeners.append(interrupt)
        try:
            result = await awaitable
        except asyncio.CancelledError:
            if interrupted and task.uncancel() == 0:  # ours, not a cancellation from outside
                raise AbortError(self._reason or "Operation aborted") from None
            raise
        finally:
            if not interrupted:
                self._listeners.remove(interrupt)
        if interrupted:  # the work swallowed the cancellation
            task.uncancel()
            raise AbortError(self._reason or "Operation aborted")
        return result

    def _fire(self, reason: str | None) -> None:
        if self._aborted:
            return
        self._aborted = True
        self._reason = reason
        listeners, self._listeners = self._listeners, []
        for listener in listeners:
            listener()
        for waiter in self._waiters:
            waiter.set()


class AbortController:
    """Owns an AbortSignal and is the only one that can trigger it."""

    def __init__(self) -> None:
        self.signal = AbortSignal()

    def abort(self, reason: str | None = None) -> None:
        """Abort the signal; listeners run once, later calls do nothing."""
        self.signal._fire(reason)
