"""A writer thread: bytes queued in order and written by a daemon thread, so a slow reader (a pipe,
a terminal) delays the output, never the event loop that produces it.

The REPL writes the terminal through one (`interactive/terminal_output.py`); RPC and JSON modes
write their records through `record_writer.py`, which bounds the memory its records hold.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable


class QueuedWriter:
    """Writes queued bytes with `sink` from its own thread, in the order queued.

    A sink that raises marks the writer failed: what is queued is dropped, later writes are
    ignored and `drain` returns at once (a reader that went away never makes the caller hang).
    With a `limit`, `write` first waits while more than that many bytes are still queued.
    With a `try_now` (a write that never blocks and returns the bytes it took), data written
    while nothing is queued goes out from the caller's own thread, the rest to the thread: no
    wait for the writer thread to be scheduled and to take the GIL from a busy caller.
    """

    def __init__(
        self,
        sink: Callable[[bytes], None],
        name: str,
        limit: int | None = None,
        try_now: Callable[[bytes], int] | None = None,
    ) -> None:
        self._sink = sink
        self._limit = limit
        self._try_now = try_now
        self._chunks: deque[bytes] = deque()
        self._pending = 0
        self._closed = False
        self.failed: Exception | None = None
        self._condition = threading.Condition()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    @property
    def backlog(self) -> int:
        """Bytes queued but not yet taken by the reader."""
        return self._pending

    def write(self, data: bytes) -> None:
        """Queue `data` (returns at once, unless the queue is past the limit)."""
        if not data or self.failed is not None:
            return
        with self._condition:
            limit = self._limit
            if limit is not None and self._pending > limit:
                self._condition.wait_for(lambda: self._pending <= limit or self._dead)
            if self.failed is not None:
                return
            if self._try_now is not None and not self._pending:
                try:
                    taken = self._try_now(data)
                except Exception as error:  # as the thread would: the reader went away
                    self.failed = error
                    self._condition.notify_all()
                    return
                if taken >= len(data):
                    return
                data = data[taken:]
            self._chunks.append(data)
            self._pending += len(data)
            self._condition.notify_all()

    def drain(self, timeout: float | None = None) -> bool:
        """Wait until everything queued is written (or writing failed); False on time-out."""
        with self._condition:
            return self._condition.wait_for(lambda: self._pending == 0 or self._dead, timeout)

    def close(self) -> None:
        """Write what is queued (waiting at most ten seconds), then stop the thread."""
        self.drain(10.0)
        with self._condition:
            self._closed = True
            self._condition.notify_all()
        self._thread.join(timeout=1.0)

    @property
    def _dead(self) -> bool:
        return self.failed is not None or not self._thread.is_alive()

    def _run(self) -> None:
        while True:
            with self._condition:
                self._condition.wait_for(lambda: bool(self._chunks) or self._closed)
                chunks = self._chunks
                if not chunks:
                    return
                data = chunks.popleft() if len(chunks) == 1 else b"".join(chunks)
                chunks.clear()
            try:
                self._sink(data)
            except Exception as error:  # a closed pipe or terminal: never a silent hang
                with self._condition:
                    self.failed = error
                    self._chunks.clear()
                    self._pending = 0
                    self._condition.notify_all()
                return
            with self._condition:
                self._pending -= len(data)
                self._condition.notify_all()
