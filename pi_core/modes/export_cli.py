"""`pi --export SESSION.jsonl [OUT.html]`: write the page, print where, and exit."""

from __future__ import annotations

import sys

import click


def export_and_exit(session_file: str, messages: list[str]) -> None:
    """Export like pi: the output is the first message argument; exit 1 with `Error: …`."""
    from pi_core.export import ExportError, export_file_to_html

    output = messages[0] if messages else None
    try:
        result = export_file_to_html(session_file, output)
    except ExportError as error:
        click.secho(f"Error: {error}", fg="red", err=True)
        sys.exit(1)
    for warning in result.warnings:
        click.secho(f"Warning: {warning}", fg="yellow", err=True)
    click.echo(f"Exported to: {result.path}")
    sys.exit(0)
