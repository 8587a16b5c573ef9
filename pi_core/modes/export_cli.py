"""`pi --export SESSION.jsonl [OUT.html]`: write the page, print where, and exit."""

from __future__ import annotations

from collections.abc import Iterable

import click

from pi_core.modes.lean import exit_process


def export_needs_no_plugins(args: Iterable[str], built_in_options: set[str]) -> bool:
    """True for `pi --export …` naming only built-in options: writing a file's page uses no
    plugin, and no plugin flag has to be parsed, so the plugins are not loaded."""
    args = list(args)
    if "--export" not in args and not any(a.startswith("--export=") for a in args):
        return False
    for arg in args:
        if arg == "--":
            break
        if arg.startswith("-") and arg != "-" and arg.split("=", 1)[0] not in built_in_options:
            return False
    return True


def export_and_exit(session_file: str, messages: list[str]) -> None:
    """Export like pi: the output is the first message argument; exit 1 with `Error: …`."""
    from pi_core.export import ExportError, export_file_to_html

    output = messages[0] if messages else None
    try:
        result = export_file_to_html(session_file, output)
    except ExportError as error:
        click.secho(f"Error: {error}", fg="red", err=True)
        exit_process(1)
    for warning in result.warnings:
        click.secho(f"Warning: {warning}", fg="yellow", err=True)
    click.echo(f"Exported to: {result.path}")
    exit_process(0)  # no teardown of the session's objects (a large session: ~0.5 s)
