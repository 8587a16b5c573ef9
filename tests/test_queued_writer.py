"""The writer thread's queue: bytes leave in the order written, from the caller's thread while
nothing is queued (when the sink offers a write that never blocks), else from the thread."""

from __future__ import annotations

import threading

from pi_core.modes.queued_writer import QueuedWriter


def test_without_a_backlog_the_bytes_are_written_from_the_callers_thread() -> None:
    written: list[tuple[bytes, int]] = []

    def try_now(data: bytes) -> int:
        written.append((data, threading.get_ident()))
        return len(data)

    writer = QueuedWriter(lambda data: written.append((data, -1)), "test", try_now=try_now)
    try:
        writer.write(b"key echo")
        assert written == [(b"key echo", threading.get_ident())]
        assert writer.backlog == 0
    finally:
        writer.close()


def test_what_the_terminal_does_not_take_at_once_goes_to_the_thread_in_order() -> None:
    received: list[bytes] = []
    thread_wrote = threading.Event()

    def sink(data: bytes) -> None:
        received.append(data)
        thread_wrote.set()

    writer = QueuedWriter(sink, "test", try_now=lambda data: 3)
    try:
        writer.write(b"abcdef")
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

    writer = QueuedWriter(slow_sink, "test", try_now=try_now)
    try:
        writer.write(b"first")
        assert sink_busy.wait(5)
        writer.write(b"second")  # "first" is still being written: no inline attempt
        release.set()
        assert writer.drain(5)
        assert inline == [b"first"]
        assert b"".join(received) == b"firstsecond"
    finally:
        writer.close()


def test_a_failing_inline_write_marks_the_writer_failed_without_raising() -> None:
    def broken(data: bytes) -> int:
        raise BrokenPipeError("the terminal went away")

    writer = QueuedWriter(lambda data: None, "test", try_now=broken)
    try:
        writer.write(b"lost")
        assert isinstance(writer.failed, BrokenPipeError)
        writer.write(b"ignored")
        assert writer.drain(1)
    finally:
        writer.close()
