"""A writer thread: lines leave in the order queued, written in batches by a daemon thread, so a
slow reader (a pipe, a terminal) delays the output, never the event loop that produces it.

RPC and JSON modes write their records through one (`stdout.py`), the REPL the terminal
(`interactive/terminal_output.py`). A line is bytes, or an object joined only when its turn comes
(`update_json.SplicedLine`: a streamed delta's record, which shares the partial message with the
records around it), so a slow reader makes the queue hold each delta once, not each partial
message. Each line comes with the bytes it holds; past `limit` held, `write` waits for the thread
(the caller's back-pressure).
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable
from typing import Protocol

BATCH_BYTES = 256 << 10  # joined and written at once by the thread


class Deferred(Protocol):
    """A line joined when it is written."""

    def to_bytes(self) -> bytes:
        """The line's bytes."""
        ...


Line = bytes | Deferred


class RecordWriter:
    """Writes queued lines with `sink` from its own thread, in the order queued.

    A sink that raises marks the writer failed: what is queued is dropped, later writes are
    ignored and `drain` returns at once (a reader that went away never makes the caller hang).
    `held` is what the queued lines hold now, `peak_held` the most they held at once; with a
    `limit`, `write` first waits while more than that is held, so `peak_held` stays within
    `limit` plus one call's lines. With a `try_now` (a write that never blocks and returns the
    bytes it took), lines written while nothing is held go out from the caller's own thread and
    only what the reader does not take at once goes to the thread: no wait for the writer thread
    to be scheduled and to take the GIL from a busy caller.
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
        self._lines: deque[tuple[Line, int]] = deque()
        self._held = 0
        self._closed = False
        self.peak_held = 0
        self.failed: Exception | None = None
        self._condition = threading.Condition()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    @property
    def held(self) -> int:
        """Bytes the lines queued or being written hold now."""
        return self._held

    def write(self, lines: list[tuple[Line, int]], held: int) -> None:
        """Queue `lines` (each with the bytes it holds; `held` is their sum), waiting first while
        more than the limit is held."""
        if not lines or self.failed is not None:
            return
        with self._condition:
            limit = self._limit
            if limit is not None and self._held > limit:
                self._condition.wait_for(lambda: self._held <= limit or self._dead)
            if self.failed is not None:
                return
            if self._try_now is not None and not self._held:
                # nothing queued or being written by the thread: the order is kept
                rest = self._write_now(lines)
                if rest is None:
                    return
                lines, held = [(rest, len(rest))], len(rest)
            self._lines.extend(lines)
            self._held += held
            self.peak_held = max(self.peak_held, self._held)
            self._condition.notify_all()

    def drain(self, timeout: float | None = None) -> bool:
        """Wait until everything queued is written (or writing failed); False on time-out."""
        with self._condition:
            return self._condition.wait_for(lambda: self._held == 0 or self._dead, timeout)

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

    def _write_now(self, lines: list[tuple[Line, int]]) -> bytes | None:
        """Write `lines` with `try_now`; what the reader did not take, or None when it took all
        (or failed: the writer is then marked failed, as the thread would)."""
        assert self._try_now is not None
        pieces = [line if isinstance(line, bytes) else line.to_bytes() for line, _ in lines]
        data = pieces[0] if len(pieces) == 1 else b"".join(pieces)
        try:
            taken = self._try_now(data)
        except Exception as error:  # a closed pipe or terminal
            self.failed = error
            self._condition.notify_all()
            return None
        return data[taken:] if taken < len(data) else None

    def _run(self) -> None:
        while True:
            with self._condition:
                self._condition.wait_for(lambda: bool(self._lines) or self._closed)
                if not self._lines:
                    return
            data, held = self._join_batch()
            try:
                self._sink(data)
            except Exception as error:  # a closed pipe or terminal: never a silent hang
                with self._condition:
                    self.failed = error
                    self._lines.clear()
                    self._held = 0
                    self._condition.notify_all()
                return
            with self._condition:
                self._held -= held
                self._condition.notify_all()

    def _join_batch(self) -> tuple[bytes, int]:
        """The next lines, joined up to about `BATCH_BYTES` (at least one), and what they held.

        Only this thread takes from the queue (a deque: safe beside the callers' appends)."""
        lines = self._lines
        pieces: list[bytes] = []
        size = held = 0
        while lines and size < BATCH_BYTES:
            line, line_held = lines.popleft()
            data = line if isinstance(line, bytes) else line.to_bytes()
            pieces.append(data)
            size += len(data)
            held += line_held
        return (pieces[0] if len(pieces) == 1 else b"".join(pieces)), held
