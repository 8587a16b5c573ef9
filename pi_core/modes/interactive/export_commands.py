"""The REPL's `/export`, `/import` and `/share` commands."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pi_core.modes.interactive.host import CommandHost


def path_argument(args: str) -> str | None:
    """The first argument, as pi reads it: quoted ("a b" or 'a b') or up to the first space."""
    text = args.strip()
    if not text:
        return None
    if text[0] in "\"'":
        end = text.find(text[0], 1)
        return text[1:end] if end > 0 else None
    return text.split()[0]


async def export_command(app: CommandHost, args: str) -> None:
    """`/export [file]`: HTML (default `pi-session-<name>.html`), or `.jsonl` for the branch."""
    from pi_core.export import ExportError, export_branch_to_jsonl
    from pi_core.export.live import export_agent_session

    output = path_argument(args)
    try:
        if output is not None and output.endswith(".jsonl"):
            path = export_branch_to_jsonl(app.session.session_manager, output)
        else:
            result = await asyncio.to_thread(export_agent_session, app.session, output)
            path = result.path
    except ExportError as error:
        app.transcript.status(f"Failed to export session: {error}", "red")
        return
    app.transcript.status(f"Session exported to: {path}")


async def import_command(app: CommandHost, args: str) -> None:
    """`/import file.jsonl`: after confirmation, copy it into the sessions folder and open it."""
    from pi_core.session.jsonl import SessionFileError, read_session_file

    given = path_argument(args)
    if not given:
        app.transcript.status("Usage: /import <path.jsonl>", "red")
        return
    if not await app.ui.confirm("Import session", f"Replace current session with {given}?"):
        app.transcript.status("Import cancelled")
        return
    source = Path(given).expanduser().resolve()
    if not source.is_file():
        app.transcript.status(f"Failed to import session: File not found: {source}", "red")
        return
    try:
        read = read_session_file(source)
        if not read.entries:
            raise SessionFileError(f"{source} is empty")
    except SessionFileError as error:
        app.transcript.status(f"Failed to import session: {error}", "red")
        return
    manager = app.session.session_manager
    folder = manager.session_dir or source.parent
    target = folder / source.name
    copied = False
    if target.resolve() != source:
        if target.exists() and target.read_bytes() != source.read_bytes():
            # pi copies over it; a different session of that name would be lost
            app.transcript.status(f"Failed to import session: {target} already exists", "red")
            return
        if not target.exists():
            folder.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
            copied = True
    from pi_core.modes.interactive.missing_cwd import switch_asking

    result = await switch_asking(app, str(target))
    if result is None or result.get("cancelled"):
        if copied:
            target.unlink(missing_ok=True)
        app.transcript.status("Import cancelled")
        return
    from pi_core.modes.interactive.session_shown import show_opened_session

    await show_opened_session(app)
    for warning in read.warnings:
        app.transcript.status(f"Warning: {warning}", "yellow")
    app.update_title()
    app.transcript.status(f"Session imported from: {given}")


async def share_command(app: CommandHost, args: str) -> None:
    """`/share`: upload the page as a secret gist with `gh`; print the viewer and gist links."""
    from pi_core.export.share import ShareError, share_session

    app.state.working = "Creating gist..."
    try:
        shared = await share_session(app.session)
    except ShareError as error:
        app.transcript.status(str(error), "red")
        return
    finally:
        app.state.working = None
    app.transcript.status(f"Share URL: {shared.share_url}\nGist: {shared.gist_url}")
