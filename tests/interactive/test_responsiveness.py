"""What keeps the REPL responsive while a long answer streams: bounded rendering steps, cheap
live-region fragments and terminal writes that never block the event loop."""

from __future__ import annotations

import os
import time
from pathlib import Path

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


def test_a_key_press_is_drawn_before_the_loop_runs_other_queued_work() -> None:
    import asyncio

    from prompt_toolkit.buffer import Buffer
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.layout import Layout, Window
    from prompt_toolkit.layout.controls import BufferControl
    from prompt_toolkit.output import DummyOutput

    from pi_core.modes.interactive.application import ReplApplication

    async def scenario() -> list[str]:
        order: list[str] = []
        with create_pipe_input() as keyboard:
            buffer = Buffer()
            app = ReplApplication(
                layout=Layout(Window(BufferControl(buffer))),
                input=keyboard,
                output=DummyOutput(),
                max_render_postpone_time=None,
            )
            drawn = asyncio.Event()

            def rendered(_: object) -> None:
                order.append(f"render {buffer.text!r}")
                drawn.set()

            app.after_render += rendered
            app.key_processor.after_key_press += lambda _: order.append("key")
            running = asyncio.ensure_future(app.run_async())
            await drawn.wait()  # the first frame

            async def stream() -> None:  # like a stream parser: one slice per loop pass
                while "x" not in buffer.text or order[-1] == "key":
                    order.append("slice")
                    await asyncio.sleep(0)
                order.append("slice")

            streaming = asyncio.ensure_future(stream())
            await asyncio.sleep(0)
            keyboard.send_text("x")
            await streaming
            app.exit(result=0)
            await running
        return order

    order = asyncio.run(scenario())
    key = order.index("key")
    assert order[key + 1] == "render 'x'"  # not a slice of the stream first


def test_a_redraw_queued_for_what_was_already_drawn_is_skipped() -> None:
    import asyncio

    from prompt_toolkit.buffer import Buffer
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.layout import Layout, Window
    from prompt_toolkit.layout.controls import BufferControl
    from prompt_toolkit.output import DummyOutput

    from pi_core.modes.interactive.application import ReplApplication

    async def scenario() -> tuple[list[str], list[str]]:
        renders: list[str] = []
        with create_pipe_input() as keyboard:
            buffer = Buffer()
            app = ReplApplication(
                layout=Layout(Window(BufferControl(buffer))),
                input=keyboard,
                output=DummyOutput(),
                max_render_postpone_time=None,
            )
            typed = asyncio.Event()

            def rendered(_: object) -> None:
                renders.append(buffer.text)
                if buffer.text == "ab":
                    typed.set()

            app.after_render += rendered
            running = asyncio.ensure_future(app.run_async())
            keyboard.send_text("ab")
            await typed.wait()
            for _ in range(5):  # let the queued redraw run
                await asyncio.sleep(0)
            after_keys = list(renders)
            app.invalidate()  # a real change still draws
            for _ in range(5):
                await asyncio.sleep(0)
            app.exit(result=0)
            await running
        return after_keys, renders

    after_keys, renders = asyncio.run(scenario())
    assert after_keys.count("ab") == 1  # drawn once, not again by the queued redraw
    assert renders.count("ab") >= 2


async def test_the_key_bindings_are_looked_up_once_not_at_each_key_press(tmp_path: Path) -> None:
    # prompt_toolkit caches the merged key bindings by the layout's controls: a layout that
    # made a new control at each look made every key press search all bindings again
    from pi_core.modes.interactive.app import InteractiveApp
    from pi_core.modes.interactive.extension_ui import InteractiveUI
    from pi_core.modes.interactive.themes.active import startup_theme
    from pi_core.plugins.manager import LoadOptions
    from pi_core.sdk import create_agent_session
    from pi_core.session.manager import SessionManager

    session = await create_agent_session(
        cwd=tmp_path,
        session=SessionManager.in_memory(str(tmp_path)),
        load_options=LoadOptions(extension_paths=[]),
    )
    try:
        theme, _ = startup_theme(session, color=False)
        app = InteractiveApp(session, InteractiveUI(), theme).app
        first = set(app.layout.find_all_controls())
        assert first == set(app.layout.find_all_controls())
        bindings = app.key_processor._bindings
        assert bindings._key_bindings is bindings._key_bindings  # type: ignore[attr-defined]
    finally:
        await session.shutdown()


def test_an_inline_write_leaves_the_terminal_blocking_and_the_bytes_in_order() -> None:
    read_end, write_end = os.pipe()
    writer = TerminalWriter(write_end)
    try:
        writer.write("echo")  # nothing queued: written from this thread, non-blocking
        assert os.get_blocking(write_end)  # as it was: the descriptor is shared with stdin
        big = "y" * 200_000  # more than the pipe takes at once: the rest goes to the thread
        writer.write(big)
        writer.write("END")
        received = bytearray()
        while not received.endswith(b"END"):
            received += os.read(read_end, 65536)
        assert writer.drain(timeout=10)
        assert received == b"echo" + big.encode() + b"END"
        assert os.get_blocking(write_end)
    finally:
        writer.close()
        os.close(read_end)
        os.close(write_end)
