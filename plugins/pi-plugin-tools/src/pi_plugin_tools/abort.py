"""Stopping a tool's work when the agent run is aborted."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable
from typing import TypeVar

from pi_core.abort import AbortError, AbortSignal

T = TypeVar("T")

ABORTED = "Operation aborted"
"""The error text pi's tools give when the run was aborted."""


def check_aborted(signal: AbortSignal | None) -> None:
    """Raise `AbortError("Operation aborted")` if the signal already fired."""
    if signal is not None and signal.aborted:
        raise AbortError(ABORTED)


async def abortable(work: Awaitable[T], signal: AbortSignal | None) -> T:
    """Await `work`, but raise `AbortError` as soon as the signal fires (the work is cancelled)."""
    task = asyncio.ensure_future(work)
    if signal is None:
        return await task
    if signal.aborted:
        task.cancel()
        raise AbortError(ABORTED)
    waiter = asyncio.ensure_future(signal.wait())
    try:
        await asyncio.wait({task, waiter}, return_when=asyncio.FIRST_COMPLETED)
    except BaseException:
        task.cancel()
        raise
    finally:
        waiter.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await waiter
    if task.done():
        return task.result()
    task.cancel()
    raise AbortError(ABORTED)
