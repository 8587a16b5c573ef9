"""Finding the `rg` binary that the `ripgrep` package installs, and streaming its output."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import shutil
import sys
import sysconfig
from collections.abc import AsyncIterator

from pi_plugin_tools.shell import kill_process_group

RG_NAME = "rg.exe" if os.name == "nt" else "rg"


class RipgrepMissing(RuntimeError):
    """No `rg` binary could be found."""


def _candidates() -> list[str]:
    folders = [os.path.dirname(sys.executable)]
    for scheme in (None, f"{os.name}_user"):
        with contextlib.suppress(KeyError):
            folders.append(
                sysconfig.get_path("scripts", scheme) if scheme else sysconfig.get_path("scripts")
            )
    return [os.path.join(folder, RG_NAME) for folder in folders if folder]


@functools.lru_cache(maxsize=1)
def find_rg() -> str:
    """Return the path of `rg`: next to this Python first (the `ripgrep` package), then PATH."""
    override = os.environ.get("PI_RG_PATH")
    if override:
        return override
    for candidate in _candidates():
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    found = shutil.which("rg")
    if found:
        return found
    raise RipgrepMissing(
        "ripgrep (rg) is not available: install the 'ripgrep' package (pip install ripgrep)"
    )


class RipgrepProcess:
    """A running `rg`, read line by line; it can be stopped at any point."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.stopped = False
        self._stderr = b""
        self._stderr_task = asyncio.ensure_future(self._read_stderr())

    @classmethod
    async def start(cls, args: list[str], cwd: str | None = None) -> RipgrepProcess:
        """Start `rg` with `args` (stdin closed, output piped)."""
        process = await asyncio.create_subprocess_exec(
            find_rg(),
            *args,
            cwd=cwd,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            start_new_session=True,
        )
        return cls(process)

    async def _read_stderr(self) -> None:
        assert self.process.stderr is not None
        self._stderr = await self.process.stderr.read()

    async def lines(self) -> AsyncIterator[bytes]:
        """Yield stdout lines (without the newline), however long they are."""
        assert self.process.stdout is not None
        pending = b""
        while True:
            chunk = await self.process.stdout.read(1 << 16)
            if not chunk:
                break
            pending += chunk
            if b"\n" not in chunk:
                continue
            *complete, pending = pending.split(b"\n")
            for line in complete:
                yield line
            if self.stopped:
                return
        if pending and not self.stopped:
            yield pending

    async def text_batches(self) -> AsyncIterator[list[str]]:
        """Yield stdout as batches of decoded lines (cheaper than line by line for listings)."""
        assert self.process.stdout is not None
        pending = b""
        while not self.stopped:
            chunk = await self.process.stdout.read(1 << 18)
            if not chunk:
                break
            data = pending + chunk
            cut = data.rfind(b"\n")
            if cut == -1:
                pending = data
                continue
            pending = data[cut + 1 :]
            yield os.fsdecode(data[:cut]).split("\n")
        if pending and not self.stopped:
            yield [os.fsdecode(pending)]

    def stop(self) -> None:
        """Ask `rg` to stop (it is killed; its exit code no longer counts as an error)."""
        self.stopped = True
        if self.process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self.process.kill()

    async def wait(self) -> tuple[int, str]:
        """Wait for `rg` to end (unread output is drained); return its exit code and stderr."""
        assert self.process.stdout is not None
        while await self.process.stdout.read(1 << 16):
            pass
        code = await self.process.wait()
        with contextlib.suppress(asyncio.CancelledError):
            await self._stderr_task
        return code, self._stderr.decode("utf-8", "replace")

    async def kill(self) -> None:
        """Kill `rg` now (used on abort) and reap it."""
        self.stopped = True
        if self.process.returncode is None:
            await kill_process_group(self.process.pid, grace=0)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.wait(), 5)
