"""`AbortSignal.race`: the awaited work is cancelled on abort, and only then is it an AbortError."""

from __future__ import annotations

import asyncio

import pytest

from pi_core.abort import AbortController, AbortError


async def test_the_result_comes_back_and_no_listener_is_left_behind() -> None:
    controller = AbortController()

    async def work() -> str:
        await asyncio.sleep(0)
        return "done"

    assert await controller.signal.race(work()) == "done"
    assert controller.signal._listeners == []
    with pytest.raises(ValueError, match="boom"):
        await controller.signal.race(_raise())
    assert controller.signal._listeners == []


async def _raise() -> None:
    raise ValueError("boom")


async def test_an_abort_cancels_the_work_and_raises_abort_error() -> None:
    controller = AbortController()
    started, cancelled = asyncio.Event(), asyncio.Event()

    async def work() -> None:
        started.set()
        try:
            await asyncio.Event().wait()  # forever
        except asyncio.CancelledError:
            cancelled.set()
            raise

    async def abort_once_started() -> None:
        await started.wait()
        controller.abort("user pressed escape")

    aborter = asyncio.create_task(abort_once_started())
    with pytest.raises(AbortError, match="user pressed escape"):
        await controller.signal.race(work())
    await aborter
    assert cancelled.is_set()
    current = asyncio.current_task()
    assert current is not None and current.cancelling() == 0  # nothing left pending
    await asyncio.sleep(0)  # and the task can go on awaiting


async def test_a_cancellation_from_outside_stays_a_cancellation() -> None:
    controller = AbortController()
    started = asyncio.Event()

    async def racer() -> None:
        async def work() -> None:
            started.set()
            await asyncio.Event().wait()

        await controller.signal.race(work())

    task = asyncio.create_task(racer())
    await started.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert controller.signal._listeners == []


async def test_an_already_aborted_signal_raises_at_once() -> None:
    controller = AbortController()
    controller.abort()
    work: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    with pytest.raises(AbortError, match="Operation aborted"):
        await controller.signal.race(work)
    assert work.cancelled()  # never left pending
