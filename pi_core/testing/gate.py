"""A named pipe a test and a child process use to wait for each other, instead of sleeping.

A shell command blocks at `gate.shell_wait` until the test calls `gate.open()`, so "the tool is
still running" holds for as long as the test needs. The other way round, a child reports "I have
started" by writing a line to `gate.path` (`gate.shell_signal`), and the test awaits
`gate.signalled()`. POSIX only (a FIFO).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shlex
import threading
from pathlib import Path


class PipeGate:
    """A FIFO at `path`: one line written by one side wakes the reader on the other."""

    def __init__(self, path: Path) -> None:
        self.path = path
        os.mkfifo(path)

    @property
    def shell_wait(self) -> str:
        """A shell command that blocks until the test calls `open()`."""
        return f"read _ < {shlex.quote(str(self.path))}"

    @property
    def shell_signal(self) -> str:
        """A shell command that wakes a test awaiting `signalled()`."""
        return f"echo > {shlex.quote(str(self.path))}"

    def open(self) -> None:
        """Wake the command blocked at `shell_wait` (now, or as soon as it gets there)."""
        threading.Thread(target=self._write_line, daemon=True).start()

    async def signalled(self, timeout: float = 30.0) -> None:
        """Wait until a child writes a line to the gate (`shell_signal`)."""
        loop = asyncio.get_running_loop()
        arrived: asyncio.Future[None] = loop.create_future()

        def settle() -> None:
            if not arrived.done():
                arrived.set_result(None)

        def read_line() -> None:
            with open(self.path) as pipe:
                pipe.readline()
            with contextlib.suppress(RuntimeError):  # the test gave up and its loop is closed
                loop.call_soon_threadsafe(settle)

        threading.Thread(target=read_line, daemon=True).start()
        await asyncio.wait_for(arrived, timeout)

    def _write_line(self) -> None:
        # Opening a FIFO for writing blocks until a reader opens it: that is the handshake.
        with open(self.path, "w") as pipe:
            pipe.write("\n")
