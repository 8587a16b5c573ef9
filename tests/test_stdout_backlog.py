"""stdout's record queue under a slow or stalled reader: every record, in order, and the memory
it holds bounded (streamed deltas queued unjoined, `BACKLOG_LIMIT` waited on)."""

from __future__ import annotations

import asyncio
import io
import os
import subprocess
import sys
import tracemalloc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pi_core.ai.builder import AssistantMessageBuilder
from pi_core.ai.model import Model
from pi_core.events.agent import MessageUpdateEvent
from pi_core.messages.trusted import construct_trusted
from pi_core.modes import stdout, update_json
from pi_core.modes.jsonl import encode_line, jsonable

MODEL = Model(id="m", name="m", api="openai-completions", provider="p", base_url="http://x")

# copies its stdin to the file named by argv[1], argv[2] bytes at a time, pausing argv[3] s
READER = """
import os, sys, time
size, pause = int(sys.argv[2]), float(sys.argv[3])
with open(sys.argv[1], "wb") as out:
    while piece := os.read(0, size):
        out.write(piece)
        time.sleep(pause)
"""


class Pipe:
    """stdout replaced by a pipe whose reader is a subprocess started on demand."""

    def __init__(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        self.read_end, write_end = os.pipe()
        self.writer = os.fdopen(write_end, "wb")
        self._monkeypatch = monkeypatch
        self.got = tmp_path / "got.jsonl"
        self.reader: subprocess.Popen[bytes] | None = None

    def install(self) -> None:
        """Make the pipe stdout (in the test itself: pytest's capture sets stdout after setup)."""
        self._monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(self.writer))

    def start_reader(self, size: int = 1 << 16, pause: float = 0.0) -> None:
        """Start the reader subprocess on the pipe's read end (slow with a small `size` and a
        `pause` after each read)."""
        self.reader = subprocess.Popen(
            [sys.executable, "-c", READER, str(self.got), str(size), str(pause)],
            stdin=self.read_end,
        )
        os.close(self.read_end)

    def finish(self) -> bytes:
        """Flush every record, close the pipe and return what the reader got."""
        assert stdout.flush_records()
        self.writer.close()
        assert self.reader is not None
        assert self.reader.wait(timeout=60) == 0
        return self.got.read_bytes()


@pytest.fixture
def pipe(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Pipe]:
    update_json._frame = None
    piped = Pipe(tmp_path, monkeypatch)
    yield piped
    if piped.reader is None:
        os.close(piped.read_end)  # a failed test: the writer thread's write fails, never hangs
    elif piped.reader.poll() is None:
        piped.reader.kill()


def _deltas(count: int, piece: str = "0123456789") -> Iterator[MessageUpdateEvent]:
    """`count` text-delta records of one streaming assistant message, as the agent sends them."""
    builder = AssistantMessageBuilder(MODEL)
    builder.start()
    index, _ = builder.text_start()
    for _ in range(count):
        event = builder.text_delta(index, piece)
        fields = {
            "type": "message_update",
            "message": event.partial,
            "assistant_message_event": event,
        }
        yield construct_trusted(MessageUpdateEvent, fields)


def _full(record: Any) -> bytes:
    return encode_line(jsonable(record))


def _same_lines(got: bytes, expected: list[bytes]) -> None:
    """`got` is the expected lines, in order (compared line by line: a short report)."""
    lines = got.splitlines(keepends=True)
    assert len(lines) == len(expected)
    for index, (line, wanted) in enumerate(zip(lines, expected, strict=True)):
        assert line == wanted, f"line {index} differs"


def test_a_stalled_reader_makes_the_queue_hold_each_delta_not_each_partial_message(
    pipe: Pipe,
) -> None:
    """1,500 deltas (~23 MB of records) queued while nobody reads hold well under 2 MiB; then a
    reader gets every line, byte for byte what the full encoder writes, in order."""
    expected: list[bytes] = []

    async def stream() -> None:
        for record in _deltas(1500):
            stdout.write_record(record)
            expected.append(_full(record))  # before the next delta grows the message
            await asyncio.sleep(0)  # one record per loop step, as deltas from separate reads

    pipe.install()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        asyncio.run(stream())
        held = tracemalloc.get_traced_memory()[0] - before - sum(map(len, expected))
    finally:
        tracemalloc.stop()
    pipe.start_reader()  # before any assertion: a stalled writer thread must not outlive the test
    got = pipe.finish()
    assert sum(map(len, expected)) > 20 << 20
    assert held < 2 << 20
    _same_lines(got, expected)


def test_a_slow_reader_gets_every_record_in_order_and_the_queue_stays_within_its_bound(
    pipe: Pipe, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Large records and deltas, far more than the bound, to a reader slower than the producer:
    the producer waits at the bound (the most held at once is the bound plus one step's
    records), and the reader gets every record in order."""
    monkeypatch.setattr(stdout, "BACKLOG_LIMIT", 256 << 10)
    expected: list[bytes] = []
    step_sizes: list[int] = []
    observed: list[int] = []

    async def produce() -> None:
        deltas = _deltas(600)
        for step in range(60):
            step_bytes = 0
            big = {"type": "tool_result", "step": step, "text": f"{step:03d}" * 10_000}
            record: Any
            for record in [big, *(next(deltas) for _ in range(10))]:
                stdout.write_record(record)
                expected.append(_full(record))
                step_bytes += len(expected[-1])
            step_sizes.append(step_bytes)
            await asyncio.sleep(0)
            observed.append(stdout.held_bytes()[0])

    pipe.install()
    pipe.start_reader(4096, 0.0005)
    asyncio.run(produce())
    peak = stdout.held_bytes()[1]
    got = pipe.finish()
    assert sum(step_sizes) > 16 * stdout.BACKLOG_LIMIT  # the reader fell behind by far more
    assert max(observed) > stdout.BACKLOG_LIMIT // 2  # and the queue did fill up
    assert peak <= stdout.BACKLOG_LIMIT + max(step_sizes)
    _same_lines(got, expected)
