"""What keeps the REPL responsive while a long answer streams: bounded rendering steps, cheap
live-region fragments and terminal writes that never block the event loop."""

from __future__ import annotations

import os
import time

from pi_core.modes.interactive.rendering import MarkdownStream, ansi_fragments, strip_ansi
from pi_core.modes.interactive.terminal_output import TerminalWriter


def test_a_deadline_cuts_rendering_into_steps_that_add_up_to_the_same_lines() -> None:
    text = "word " * 20_000 + "LAST"
    whole = MarkdownStream()
    whole.feed(text)
    expected = strip_ansi(whole.finish(80) or "").split()

    stream = MarkdownStream()
    stream.feed(text)
    pieces: list[str] = []
    steps = 0
    while True:
        steps += 1
        out = stream.take_stable(80, deadline=time.perf_counter() - 1)  # always past: one step
        if out:
            pieces.append(out)
        if not stream.behind:
            break
    rest = stream.finish(80)
    if rest:
        pieces.append(rest)
    assert steps > 10  # 100 KB were not rendered in one go
    assert strip_ansi("\n".join(pieces)).split() == expected


def test_the_live_tail_never_renders_more_than_one_bounded_piece() -> None:
    stream = MarkdownStream()
    stream.feed("word " * 500)
    stream.take_stable(80)
    shown = stream.tail(80)
    assert shown
    stream.feed("word " * 50_000)  # far ahead of the renderer
    assert stream.tail(80) == shown  # the last tail stays until the renderer catches up
    assert len(stream._cache[0]) <= 4_000 + 10


def test_ansi_fragments_are_runs_of_one_style() -> None:
    fragments = ansi_fragments("\x1b[31mred text\x1b[0m plain\nnext line")
    assert fragments == [("ansired", "red text"), ("", " plain\nnext line")]


def test_the_writer_returns_at_once_while_the_reader_does_not_read() -> None:
    read_end, write_end = os.pipe()
    writer = TerminalWriter(write_end)
    try:
        big = "x" * 1_000_000  # more than a pipe holds: a blocking write() would hang here
        writer.write(big)
        writer.write("END")
        assert writer.backlog > 0
        received = bytearray()
        while not received.endswith(b"END"):
            received += os.read(read_end, 65536)
        assert writer.drain(timeout=10)
        assert writer.backlog == 0
        assert received == big.encode() + b"END"
    finally:
        writer.close()
        os.close(read_end)
        os.close(write_end)


def test_a_closed_terminal_drops_output_instead_of_blocking() -> None:
    read_end, write_end = os.pipe()
    os.close(read_end)
    writer = TerminalWriter(write_end)
    try:
        writer.write("nobody reads this")
        assert writer.drain(timeout=10)
        writer.write("nor this")  # ignored once broken
        assert writer.drain(timeout=10)
    finally:
        writer.close()
        os.close(write_end)
