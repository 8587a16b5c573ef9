"""The writer thread's queue: lines leave in the order written, from the caller's thread while
nothing is queued (when the sink offers a write that never blocks), else from the thread."""

from __future__ import annotations

import io
import os
import threading

from pi_core.modes.record_writer import RecordWriter


def put(writer: RecordWriter, data: bytes) -> None:
    """Queue one line of bytes."""
    writer.write([(data, len(data))], len(data))


def test_without_a_backlog_the_bytes_are_written_from_the_callers_thread() -> None:
    written: list[tuple[bytes, int]] = []

    def try_now(data: bytes) -> int:
        written.append((data, threading.get_ident()))
        return len(data)

    writer = RecordWriter(lambda data: written.append((data, -1)), "test", try_now=try_now)
    try:
        put(writer, b"key echo")
        assert written == [(b"key echo", threading.get_ident())]
        assert writer.held == 0
    finally:
        writer.close()


def test_what_the_terminal_does_not_take_at_once_goes_to_the_thread_in_order() -> None:
    received: list[bytes] = []
    thread_wrote = threading.Event()

    def sink(data: bytes) -> None:
        received.append(data)
        thread_wrote.set()

    writer = RecordWriter(sink, "test", try_now=lambda data: 3)
    try:
        put(writer, b"abcdef")
        assert thread_wrote.wait(5)
        assert writer.drain(5)
        assert received == [b"def"]  # "abc" went out at once
    finally:
        writer.close()


def test_while_bytes_are_queued_new_ones_wait_behind_them() -> None:
    received: list[bytes] = []
    inline: list[bytes] = []
    release = threading.Event()
    sink_busy = threading.Event()

    def slow_sink(data: bytes) -> None:
        sink_busy.set()
        release.wait(5)
        received.append(data)

    def try_now(data: bytes) -> int:
        inline.append(data)
        return 0  # the terminal takes nothing now: everything goes to the thread

    writer = RecordWriter(slow_sink, "test", try_now=try_now)
    try:
        put(writer, b"first")
        assert sink_busy.wait(5)
        put(writer, b"second")  # "first" is still being written: no inline attempt
        release.set()
        assert writer.drain(5)
        assert inline == [b"first"]
        assert b"".join(received) == b"firstsecond"
    finally:
        writer.close()


def test_a_failing_inline_write_marks_the_writer_failed_without_raising() -> None:
    def broken(data: bytes) -> int:
        raise BrokenPipeError("the terminal went away")

    writer = RecordWriter(lambda data: None, "test", try_now=broken)
    try:
        put(writer, b"lost")
        assert isinstance(writer.failed, BrokenPipeError)
        put(writer, b"ignored")
        assert writer.drain(1)
    finally:
        writer.close()


def test_stdout_writes_what_the_pipe_takes_at_once_and_leaves_it_blocking() -> None:
    from pi_core.modes.stdout import _write_at_once

    read_end, write_end = os.pipe()
    with open(write_end, "wb") as stream, open(read_end, "rb", buffering=0) as reader:
        write = _write_at_once(stream)
        assert write is not None
        data = bytes(range(256)) * 1024  # 256 KiB: more than a pipe holds
        taken = write(data)
        assert 0 < taken < len(data)
        assert os.get_blocking(write_end)
        assert write(data[taken:]) == 0  # full: nothing taken, nothing blocks
        received = b""
        while len(received) < taken:
            received += reader.read(taken - len(received))
        assert received == data[:taken]


def test_stdout_without_a_descriptor_leaves_every_record_to_the_thread() -> None:
    from pi_core.modes.stdout import _write_at_once

    assert _write_at_once(io.BytesIO()) is None
