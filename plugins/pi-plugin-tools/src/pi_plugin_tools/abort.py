"""Stopping a tool's work when the agent run is aborted."""

from __future__ import annotations

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
    if signal is None:
        return await work
    try:
        return await signal.race(work)
    except AbortError:
        raise AbortError(ABORTED) from None
