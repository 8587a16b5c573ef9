"""Running a shell command in its own process group, streaming its output, stoppable at once."""

from __future__ import annotations

import asyncio
import contextlib
import os
import subprocess
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from pi_plugin_tools.shell import kill_process_group, reaper, shell_command

if TYPE_CHECKING:
    from pi_core.abort import AbortSignal

EXIT_STDIO_GRACE_SECONDS = 0.1
"""After the shell exits, how long to wait for background children to release its output pipe."""

StopReason = Literal["aborted", "timeout"]


@dataclass(frozen=True)
class RunOutcome:
    """How a command ended: its exit code (None if killed by a signal) or why it was stopped."""

    exit_code: int | None
    stopped: StopReason | None = None
    signal_number: int | None = None


class _PipeProtocol(asyncio.Protocol):
    def __init__(self, on_data: Callable[[bytes], None], closed: asyncio.Future[None]) -> None:
        self._on_data = on_data
        self._closed = closed

    def data_received(self, data: bytes) -> None:
        """Pass a chunk of output on."""
        self._on_data(data)

    def connection_lost(self, exc: Exception | None) -> None:
        """Note that every writer closed the pipe."""
        if not self._closed.done():
            self._closed.set_result(None)


def _exit_future(process: subprocess.Popen[bytes]) -> asyncio.Future[int]:
    """Return a future that resolves with the exit status when the process ends."""
    loop = asyncio.get_running_loop()
    future: asyncio.Future[int] = loop.create_future()
    pidfd_open = getattr(os, "pidfd_open", None)
    if pidfd_open is not None:
        try:
            pidfd = pidfd_open(process.pid)
        except OSError:
            pidfd = -1
        if pidfd >= 0:

            def on_exit() -> None:
                loop.remove_reader(pidfd)
                os.close(pidfd)
                if not future.done():
                    future.set_result(process.wait())

            loop.add_reader(pidfd, on_exit)
            return future

    def settle(code: int) -> None:
        if not future.done():
            future.set_result(code)

    def wait_in_thread() -> None:
        code = process.wait()
        with contextlib.suppress(RuntimeError):  # the loop may be closed already
            loop.call_soon_threadsafe(settle, code)

    threading.Thread(target=wait_in_thread, name=f"wait-{process.pid}", daemon=True).start()
    return future


async def run_in_shell(
    command: str,
    cwd: str,
    on_data: Callable[[bytes], None],
    signal: AbortSignal | None = None,
    timeout: float | None = None,
    env: dict[str, str] | None = None,
    shell: list[str] | None = None,
) -> RunOutcome:
    """Run `command` with the user's bash in a new process group; stdout and stderr merged.

    On abort or timeout the whole group gets SIGTERM, then SIGKILL after a grace period.
    """
    if not os.path.isdir(cwd):
        raise FileNotFoundError(
            f"Working directory does not exist: {cwd}\nCannot execute bash commands."
        )
    loop = asyncio.get_running_loop()
    process = subprocess.Popen(
        [*(shell or shell_command()), command],
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
        env=env if env is not None else os.environ.copy(),
    )
    assert process.stdout is not None
    reaper.watch(process.pid)
    pipe_closed: asyncio.Future[None] = loop.create_future()
    transport, _ = await loop.connect_read_pipe(
        lambda: _PipeProtocol(on_data, pipe_closed), process.stdout
    )
    exited = _exit_future(process)
    stop: asyncio.Future[StopReason] = loop.create_future()

    def request_stop(reason: StopReason) -> None:
        if not stop.done():
            stop.set_result(reason)

    remove_listener = (
        signal.add_listener(lambda: request_stop("aborted")) if signal is not None else None
    )
    timer = (
        loop.call_later(timeout, request_stop, "timeout")
        if timeout is not None and timeout > 0
        else None
    )
    stopped: StopReason | None = None
    try:
        waiters: set[asyncio.Future[Any]] = {exited, stop}
        await asyncio.wait(waiters, return_when=asyncio.FIRST_COMPLETED)
        if stop.done() and not exited.done():
            stopped = stop.result()
            await kill_process_group(process.pid)
        code = await exited
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.shield(pipe_closed), EXIT_STDIO_GRACE_SECONDS)
    except BaseException:
        if process.poll() is None:
            await asyncio.shield(kill_process_group(process.pid, grace=0))
        raise
    finally:
        reaper.forget(process.pid)
        transport.close()
        if timer is not None:
            timer.cancel()
        if remove_listener is not None:
            remove_listener()
        if not stop.done():
            stop.cancel()
    if code < 0:
        return RunOutcome(None, stopped, signal_number=-code)
    return RunOutcome(code, stopped)
