"""`pi` in a terminal, editor first: the REPL's start with the agent loading behind the editor.

The early editor (`early_editor.py`) is drawn as soon as prompt_toolkit is imported. Behind it a
daemon thread imports the core (the slow part of the start, and pure imports: safe to run beside
the editor), then the event loop loads the plugins, reports their problems and opens the session.
Only then does the REPL replace the early editor, with its text and the keys it held: nothing is
sent, and no key reaches a binding, before every plugin (every gate) is loaded. A plugin that fails
to load stops the start, as it does without the early editor.

Plugins may add command-line flags, which are only known once they have loaded; the command line
takes this path only when every option on it is a built-in one
(`pi_core.modes.early_start.early_start_wanted`, which every run checks without importing this
module).
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import io
import signal
import sys
import threading
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pi_core.modes.run_options import RunOptions
from pi_core.terminal_text import for_stream

if TYPE_CHECKING:
    from pi_core.session.missing_cwd import MissingSessionCwd

# What the start imports after the editor is up, in the order it needs them. Importing them on a
# thread while the editor takes keys is what makes the editor usable early; the loop then finds
# them in `sys.modules`.
CORE_MODULES = (
    "pi_core.modes.startup",
    "pi_core.plugins.manager",
    "email.parser",  # importlib.metadata reads the plugins' distributions with it
    "pi_core.providers",
    "pi_core.ai.builder",
    "pi_core.ai.cost",
    "pi_core.ai.transform",
    "pi_core.ai.model_registry",
    "pi_core.agent_session.session",
    "pi_core.modes.files",
    "pi_core.modes.interactive.extension_ui",
    "pi_core.modes.interactive.app",
    "pi_core.modes.interactive.header",
    "pi_core.modes.interactive.themes.active",
)


def _import_all(names: tuple[str, ...]) -> None:
    for name in names:
        # an error is left for the loop, which imports the module again and reports it
        with contextlib.suppress(Exception):
            importlib.import_module(name)


async def _in_daemon_thread(work: Callable[[], None]) -> None:
    """Run `work` on a daemon thread (not the default executor, whose threads `exit` waits
    for: leaving during the start must not wait for the imports)."""
    loop = asyncio.get_running_loop()
    done = loop.create_future()

    def finish() -> None:
        if not done.done():
            done.set_result(None)

    def run() -> None:
        try:
            work()
        finally:
            loop.call_soon_threadsafe(finish)

    threading.Thread(target=run, name="pi-start", daemon=True).start()
    await done


async def run_editor_first(
    options: RunOptions, messages: list[str], files: list[str], verbose: bool
) -> int:
    """Draw the editor, load the agent behind it, then run the REPL; returns the exit code."""
    from prompt_toolkit.input.vt100 import raw_mode

    from pi_core.modes.interactive.early_editor import EarlyEditor

    early = EarlyEditor(str(options.cwd))
    # raw from the early editor's first frame to the REPL's: keys typed while one app closes and
    # the next opens must not be echoed by the terminal
    with raw_mode(sys.stdin.fileno()), _leaving_on_signals(early.leave):
        editing = early.start()
        captured = io.StringIO()
        load = asyncio.ensure_future(_load(options, files, verbose, captured))
        try:
            await asyncio.wait({load, editing}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            if early.quit:
                load.cancel()
            draft = await early.hand_over()
        sys.stderr.write(for_stream(captured.getvalue(), sys.stderr))  # plugin words, file names
        sys.stderr.flush()
        if early.quit:
            return 0
        loaded = load.result()
        if loaded.missing_cwd is not None and loaded.reopen is not None:
            from pi_core.modes.interactive.missing_cwd import ask_at_start

            if not await ask_at_start(loaded.missing_cwd):
                return 0  # pi's Cancel
            loaded.session = await loaded.reopen()
        if loaded.session is None:
            return 1
    from pi_core.modes.interactive import run_app
    from pi_core.modes.lean import startup_done

    startup_done()  # the REPL runs long: the GC is back on for it
    first = "".join(
        part for part in (loaded.attached_text, messages[0] if messages else None) if part
    )
    try:
        return await run_app(
            loaded.session, loaded.ui, first or None, loaded.images, messages[1:], draft=draft
        )
    finally:
        await loaded.session.shutdown()


@contextlib.contextmanager
def _leaving_on_signals(leave: Callable[[], None]) -> Iterator[None]:
    """SIGTERM and SIGHUP during the start close the early editor (the REPL has its own)."""
    loop = asyncio.get_running_loop()
    signals = [signal.SIGTERM, signal.SIGHUP]
    for number in signals:
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(number, leave)
    try:
        yield
    finally:
        for number in signals:
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.remove_signal_handler(number)


@dataclass
class _Loaded:
    """What the start produced: the session (None when the start must stop) and the files."""

    session: Any = None
    ui: Any = None
    attached_text: str | None = None
    images: Any = None
    missing_cwd: MissingSessionCwd | None = None  # the session's folder is gone: ask, then
    reopen: Callable[[], Awaitable[Any]] | None = None  # open it in the current folder


async def _load(options: RunOptions, files: list[str], verbose: bool, out: io.StringIO) -> _Loaded:
    """Import the core on a thread, then load the plugins and open the session on the loop;
    what they print is kept in `out` (the early editor owns the screen meanwhile)."""
    loaded = _Loaded()
    await _in_daemon_thread(lambda: _import_all(CORE_MODULES))
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        from pi_core.modes.files import FileArgumentError, process_file_arguments
        from pi_core.modes.interactive.extension_ui import InteractiveUI
        from pi_core.modes.startup import (
            StartupError,
            load_plugins_for,
            open_session,
            problem_lines,
        )
        from pi_core.session.missing_cwd import MissingSessionCwdError

        manager = load_plugins_for(options)
        registry = manager.model_registry()
        for line in problem_lines(manager, registry, verbose=verbose):
            print(line, file=out)
        if manager.errors:
            return loaded
        ui = InteractiveUI()
        manager.runtime.ui = ui
        try:
            attached = process_file_arguments(files, options.cwd)
            loaded.session = await open_session(options, manager, ui, registry)
        except MissingSessionCwdError as error:
            loaded.missing_cwd = error.issue
            options.session_in_cwd = True
            loaded.reopen = lambda: open_session(options, manager, ui, registry)
        except (StartupError, FileArgumentError, LookupError, OSError, ValueError) as error:
            print(f"Error: {error}", file=out)
            return loaded
    loaded.ui = ui
    loaded.attached_text = attached.text
    loaded.images = attached.images or None
    return loaded
