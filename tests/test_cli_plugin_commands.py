"""`pi NAME …` subcommands that installed distributions add (entry-point group `pi.commands`)."""

from __future__ import annotations

from importlib.metadata import EntryPoint, EntryPoints
from typing import Any

import click
import pytest
from click.testing import CliRunner

from pi_core import cli as cli_module


@click.command("hello")
@click.argument("who")
def hello(who: str) -> None:
    """Say hello."""
    click.echo(f"hello {who}")


@pytest.fixture
def declared(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Declare `pi hello` the way a distribution's metadata would; record each lookup."""
    looked_up: list[str] = []
    entry = EntryPoint("hello", f"{__name__}:hello", cli_module.PLUGIN_COMMANDS_GROUP)

    def entry_points(**query: Any) -> EntryPoints:
        looked_up.append(query.get("name", ""))
        found = [entry] if query.get("name") == "hello" else []
        return EntryPoints(found if query.get("group") == entry.group else [])

    monkeypatch.setattr("importlib.metadata.entry_points", entry_points)
    yield looked_up
    cli_module.cli.commands.pop("hello", None)


def test_a_declared_subcommand_runs(declared: list[str]) -> None:
    result = CliRunner().invoke(cli_module.cli, ["hello", "world"], prog_name="pi")
    assert result.exit_code == 0, result.output
    assert result.output == "hello world\n"
    assert declared == ["hello"]


def test_options_and_files_never_look_up_entry_points(declared: list[str]) -> None:
    CliRunner().invoke(cli_module.cli, ["--version"], prog_name="pi")
    CliRunner().invoke(cli_module.cli, ["plugins", "--json"], prog_name="pi")
    assert declared == []
