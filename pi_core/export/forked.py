"""Text computed in a forked child while the parent goes on: a second core for a large export."""

from __future__ import annotations

import os
from collections.abc import Callable


class Forked:
    """`compute()` run in a forked child; `result()` reads its text back.

    Without a child (no fork on this platform, `fork=False`, or a child that failed) `result()`
    computes the text itself, so the answer never depends on the fork. The child only computes
    and writes to a pipe, then leaves with `os._exit`: no cleanup, no buffered output of the
    parent is written twice.
    """

    def __init__(self, compute: Callable[[], str], *, fork: bool) -> None:
        self._compute = compute
        self._pid: int | None = None
        self._read_fd = -1
        if not (fork and hasattr(os, "fork")):
            return
        try:
            read_fd, write_fd = os.pipe()
            pid = os.fork()
        except OSError:
            return
        if pid == 0:  # the child
            code = 0
            try:
                os.close(read_fd)
                view = memoryview(compute().encode("utf-8", "surrogatepass"))
                while view:
                    view = view[os.write(write_fd, view) :]
            except BaseException:  # the parent computes it again
                code = 1
            os._exit(code)
        os.close(write_fd)
        self._pid, self._read_fd = pid, read_fd

    def result(self) -> str:
        """The text (waits for the child)."""
        if self._pid is None:
            return self._compute()
        with os.fdopen(self._read_fd, "rb") as pipe:
            data = pipe.read()
        _, status = os.waitpid(self._pid, 0)
        self._pid = None
        if os.waitstatus_to_exitcode(status) != 0:
            return self._compute()
        return data.decode("utf-8", "surrogatepass")
