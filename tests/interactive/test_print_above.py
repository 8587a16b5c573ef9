"""Finished lines go into the scrollback while the terminal stays in raw mode, and the REPL's
default key bindings are prompt_toolkit's emacs ones without the vi set."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

from prompt_toolkit.application import Application
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.key_binding.bindings.vi import load_vi_bindings, load_vi_search_bindings
from prompt_toolkit.key_binding.defaults import load_key_bindings
from prompt_toolkit.layout import Layout, Window
from prompt_toolkit.layout.controls import FormattedTextControl
from prompt_toolkit.output import DummyOutput

from pi_core.modes.interactive.app import InteractiveApp
from pi_core.modes.interactive.default_keys import emacs_key_bindings


def _run_with_app(body: Any) -> tuple[list[str], list[str]]:
    """Run `body(repl, events)` while a prompt_toolkit app runs on a pipe input; return what
    was written and the log of cooked-mode entries and redraws."""
    written: list[str] = []
    events: list[str] = []

    async def run() -> None:
        with create_pipe_input() as pipe:
            app: Application[None] = Application(
                layout=Layout(Window(FormattedTextControl("live"))), input=pipe,
                output=DummyOutput(),
            )  # fmt: skip
            cooked = pipe.cooked_mode

            @contextlib.contextmanager
            def spy_cooked() -> Iterator[None]:
                events.append("cooked")
                with cooked():
                    yield

            pipe.cooked_mode = spy_cooked  # type: ignore[method-assign]
            app.after_render += lambda _: events.append("drawn")
            repl = SimpleNamespace(app=app, write=written.append)
            task = asyncio.ensure_future(app.run_async())
            while not app.is_running:
                await asyncio.sleep(0.001)
            await body(repl, events)
            app.exit()
            await task

    asyncio.run(run())
    return written, events


def test_finished_lines_are_printed_without_leaving_raw_mode() -> None:
    async def body(repl: Any, events: list[str]) -> None:
        events.clear()
        await InteractiveApp.print_above(repl, "line one\nline two\n")

    written, events = _run_with_app(body)
    assert written == ["line one\nline two\n"]
    assert "cooked" not in events  # a key typed now is not echoed by the terminal
    assert "drawn" in events  # the live region is drawn again below the lines


def test_printing_waits_behind_a_running_terminal_task() -> None:
    async def body(repl: Any, events: list[str]) -> None:
        release = asyncio.Event()

        async def in_terminal_task() -> None:
            events.append("editor starts")
            await release.wait()
            events.append("editor ends")

        async def hold_terminal() -> None:
            from prompt_toolkit.application import in_terminal

            async with in_terminal():
                await in_terminal_task()

        holder = asyncio.ensure_future(hold_terminal())
        while "editor starts" not in events:
            await asyncio.sleep(0.001)
        printing = asyncio.ensure_future(InteractiveApp.print_above(repl, "after\n"))
        await asyncio.sleep(0.01)
        assert not printing.done()  # queued behind the terminal task, not drawn over it
        release.set()
        await holder
        await printing

    written, events = _run_with_app(body)
    assert written == ["after\n"]
    assert events.index("editor ends") < len(events) - 1


def test_the_default_bindings_are_emacs_without_vi() -> None:
    ours = emacs_key_bindings().bindings
    modules = {binding.handler.__module__ for binding in ours}
    assert not any(module.endswith(".vi") for module in modules)
    every = load_key_bindings().bindings
    vi = len(load_vi_bindings().bindings) + len(load_vi_search_bindings().bindings)
    assert vi > 300  # most of prompt_toolkit's full set
    assert len(ours) == len(every) - vi
