"""Terminal output through a writer thread: a slow terminal delays the picture, never the loop.

prompt_toolkit writes each redraw with a blocking `write()` on the event loop, and so did the
scrollback printer; when the terminal (or tmux, or an ssh link) reads slowly, the loop stalled
there and key presses and the agent's stream waited with it. Here every byte for the terminal
goes out in order without blocking: written at once while the terminal takes it and nothing is
queued, else queued for a daemon thread that writes it out.
"""

from __future__ import annotations

import contextlib
import os
import select
import sys
from collections.abc import Iterator
from typing import Any

from prompt_toolkit.output.vt100 import Vt100_Output

from pi_core.modes.record_writer import RecordWriter

# DEC mode 2026: the terminal shows what comes between these two at once, never half a frame
# (one that does not know the mode ignores them)
BEGIN_SYNC = "\x1b[?2026h"
END_SYNC = "\x1b[?2026l"


class TerminalWriter:
    """Text for a terminal's file descriptor, written in the order queued: at once while the
    terminal takes it, else by a `RecordWriter` thread; once the terminal goes away, output is
    dropped and nothing blocks."""

    def __init__(self, fd: int, encoding: str = "utf-8") -> None:
        self.fd = fd
        self.encoding = encoding
        self._queue = RecordWriter(
            self._write_all, "pi-terminal-writer", try_now=self._write_without_blocking
        )

    @property
    def backlog(self) -> int:
        """Bytes queued but not yet accepted by the terminal."""
        return self._queue.held

    def write(self, text: str) -> None:
        """Queue text (returns at once)."""
        if text:
            data = text.encode(self.encoding, "replace")
            self._queue.write([(data, len(data))], len(data))

    def drain(self, timeout: float | None = 10.0) -> bool:
        """Wait until everything queued is written; False if the terminal did not take it."""
        return self._queue.drain(timeout)

    def close(self) -> None:
        """Write what is queued, then stop the thread."""
        self._queue.close()

    def _write_without_blocking(self, data: bytes) -> int:
        """Write what the terminal takes now; the bytes written (0 if it would block).

        A key's echo handed to the thread waited for it to be scheduled and to take the GIL
        from the loop (which is parsing the stream): up to a switch interval, 5 ms. The
        descriptor is non-blocking only for this call: it is shared with stdin and with the
        shell after exit.
        """
        blocking = os.get_blocking(self.fd)
        if blocking:
            os.set_blocking(self.fd, False)
        try:
            return os.write(self.fd, data)
        except (BlockingIOError, InterruptedError):
            return 0
        finally:
            if blocking:
                os.set_blocking(self.fd, True)

    def _write_all(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            try:
                written = os.write(self.fd, view)
            except BlockingIOError:
                select.select([], [self.fd], [])
                continue
            except InterruptedError:
                continue
            view = view[written:]


class ThreadedOutput(Vt100_Output):
    """prompt_toolkit's VT100 output, flushing into a `TerminalWriter` instead of `write()`;
    each flush (a redraw) is one synchronized frame."""

    writer: TerminalWriter
    _sync_depth = 0

    def flush(self) -> None:
        """Hand the buffered escape codes and text to the writer thread."""
        if not self._buffer:
            return
        data = "".join(self._buffer)
        self._buffer = []
        self.writer.write(data if self._sync_depth else BEGIN_SYNC + data + END_SYNC)

    @contextlib.contextmanager
    def synchronized(self) -> Iterator[None]:
        """Everything written inside (flushes, and the writer's own text) as one frame."""
        self.flush()
        self.writer.write(BEGIN_SYNC)
        self._sync_depth += 1
        try:
            yield
        finally:
            self.flush()
            self._sync_depth -= 1
            self.writer.write(END_SYNC)


def one_frame(output: Any) -> contextlib.AbstractContextManager[None]:
    """What is written inside shown at once where `output` is the REPL's own (a no-op else)."""
    if isinstance(output, ThreadedOutput):
        return output.synchronized()
    return contextlib.nullcontext()


def threaded_output(stdout: Any = None) -> ThreadedOutput | None:
    """A VT100 output for the terminal on `stdout` whose writes never block the event loop
    (None when `stdout` is not a terminal: prompt_toolkit's own choice applies then)."""
    from prompt_toolkit.output.color_depth import ColorDepth
    from prompt_toolkit.utils import get_bell_environment_variable, get_term_environment_variable

    stream = stdout or sys.stdout
    if sys.platform == "win32" or not stream.isatty():
        return None
    output = ThreadedOutput.from_pty(  # from_pty builds `cls`
        stream,
        term=get_term_environment_variable(),
        default_color_depth=ColorDepth.from_env(),
        enable_bell=get_bell_environment_variable(),
    )
    assert isinstance(output, ThreadedOutput)
    output.writer = TerminalWriter(stream.fileno(), getattr(stream, "encoding", None) or "utf-8")
    return output
