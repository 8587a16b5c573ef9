"""A writer thread for JSONL records: lines queued in order and written in batches by a daemon
thread, with the memory the queue holds bounded.

A line is bytes, or an object joined only when its turn comes (`update_json.SplicedLine`: a
streamed delta's record, which shares the partial message with the records around it), so a slow
reader makes the queue hold each delta once, not each partial message. Each line comes with the
bytes it holds; past `limit` held, `write` waits for the thread (the caller's back-pressure).
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
    ignored and `drain` returns at once. `held` is what the queued lines hold now, `peak_held`
    the most they held at once; `write` first waits while more than `limit` is held, so
    `peak_held` stays within `limit` plus one call's lines.
    """

    def __init__(self, sink: Callable[[bytes], None], name: str, limit: int) -> None:
        self._sink = sink
        self._limit = limit
        self._lines: deque[tuple[Line, int]] = deque()
        self._held = 0
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
            if self._held > limit:
                self._condition.wait_for(lambda: self._held <= limit or self._dead)
            if self.failed is not None:
                return
            self._lines.extend(lines)
            self._held += held
            self.peak_held = max(self.peak_held, self._held)
            self._condition.notify_all()

    def drain(self, timeout: float | None = None) -> bool:
        """Wait until everything queued is written (or writing failed); False on time-out."""
        with self._condition:
            return self._condition.wait_for(lambda: self._held == 0 or self._dead, timeout)

    @property
    def _dead(self) -> bool:
        return self.failed is not None or not self._thread.is_alive()

    def _run(self) -> None:
        while True:
            with self._condition:
                self._condition.wait_for(lambda: bool(self._lines))
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
