"""The interactive mode: `pi` in a terminal (prompt_toolkit and rich are imported only here)."""

from __future__ import annotations

import os
import shutil
from typing import Any


async def run_interactive(options: Any, manager: Any, messages: list[str], files: list[str]) -> int:
    """Open the session and run the REPL (or the line-mode REPL on `TERM=dumb`)."""
    import click

    from pi_core.modes.files import FileArgumentError, process_file_arguments
    from pi_core.modes.interactive.extension_ui import InteractiveUI
    from pi_core.modes.interactive.missing_cwd import open_or_ask
    from pi_core.modes.startup import StartupError, open_session
    from pi_core.plugins.errors import PluginLoadFailed

    dumb = os.environ.get("TERM", "") == "dumb"
    resume = bool(getattr(options, "resume", False)) and not dumb
    if resume:
        options.resume = False  # the picker runs inside the REPL, on a fresh session
    ui = InteractiveUI()
    if not dumb:
        manager.runtime.ui = ui

    async def opened(in_cwd: bool) -> Any:
        options.session_in_cwd = in_cwd
        return await open_session(options, manager, None if dumb else ui)

    try:
        attached = process_file_arguments(files, options.cwd)
        session = await open_or_ask(opened, plain=dumb)
    except (StartupError, FileArgumentError, LookupError, OSError, ValueError) as error:
        click.echo(f"Error: {error}", err=True)
        return 1
    if session is None:  # the stored folder is gone and the user cancelled: pi exits with 0
        return 0
    first = "".join(part for part in (attached.text, messages[0] if messages else None) if part)
    images = attached.images or None
    try:
        if dumb:
            from pi_core.modes.interactive.dumb import DumbRepl

            return await DumbRepl(session).run(first or None, images)
        return await run_app(session, ui, first or None, images, messages[1:], resume)
    except PluginLoadFailed as error:  # `pi -r` chose a session whose folder's plugins fail
        for failure in error.errors:
            click.echo(f"Error: {failure.message()}", err=True)
        return 1
    finally:
        await session.shutdown()


async def run_app(
    session: Any,
    ui: Any,
    first: str | None,
    images: Any,
    more: list[str],
    resume: bool = False,
    draft: Any = None,
    on_start: Any = None,
) -> int:
    """Print the header and the loaded session, then run the REPL on `session` (its editor
    holding `draft`, a prompt_toolkit Document, if given) until the user leaves."""
    from pi_core.modes.interactive.app import InteractiveApp
    from pi_core.modes.interactive.changelog_view import startup_changelog, whats_new_block
    from pi_core.modes.interactive.header import header
    from pi_core.modes.interactive.scrollback import print_block
    from pi_core.modes.interactive.themes.active import start_theme_watch, startup_theme

    theme, theme_warnings = startup_theme(session)
    width = shutil.get_terminal_size((80, 24)).columns
    block = header(session, bool(session.settings.get_quiet_startup()), custom=ui.header_factory)
    if block is not None:
        print_block(block, theme, width)
    app = InteractiveApp(session, ui, theme)
    for warning in theme_warnings:
        app.transcript.status(f"Warning: {warning}", "yellow")
    for message in session.messages:
        app.transcript.message(message, width)
    news = startup_changelog(session)
    if news:
        collapsed = bool(session.settings.get_collapse_changelog())
        app.transcript.emit(whats_new_block(news, theme, width, collapsed=collapsed))
    app.flush_before_start()
    if draft is not None:
        app.buffer.document = draft
    start_theme_watch(app)
    if resume:
        from pi_core.modes.interactive.selectors.sessions import pick_session

        app.spawn(pick_session(app, exit_on_cancel=True), "resume")
    if on_start is not None:  # `on_start(app)`: a coroutine run once the REPL is up
        app.spawn(on_start(app), "start")
    return await app.run(first, images, more)
