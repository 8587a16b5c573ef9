"""`pi NAME …` subcommands that installed distributions add (entry-point group `pi.commands`)."""

from __future__ import annotations

from importlib.metadata import EntryPoint

import click
import pytest
from click.testing import CliRunner

from pi_core import cli as cli_module
from pi_core.plugins import entry_cache


@click.command("hello")
@click.argument("who")
def hello(who: str) -> None:
    """Say hello."""
    click.echo(f"hello {who}")


@pytest.fixture
def declared(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Declare `pi hello` the way a distribution's metadata would (through the entry-point
    cache); record each lookup of the `pi.commands` group."""
    looked_up: list[str] = []
    entry = EntryPoint("hello", f"{__name__}:hello", cli_module.PLUGIN_COMMANDS_GROUP)
    real = entry_cache.entry_points

    def entry_points(group: str) -> list[EntryPoint]:
        if group != entry.group:
            return real(group)
        looked_up.append(group)
        return [entry]

    monkeypatch.setattr(entry_cache, "entry_points", entry_points)
    yield looked_up
    cli_module.cli.commands.pop("hello", None)


def test_a_declared_subcommand_runs(declared: list[str]) -> None:
    result = CliRunner().invoke(cli_module.cli, ["hello", "world"], prog_name="pi")
    assert result.exit_code == 0, result.output
    assert result.output == "hello world\n"
    assert declared == [cli_module.PLUGIN_COMMANDS_GROUP]


def test_options_and_files_never_look_up_entry_points(declared: list[str]) -> None:
    CliRunner().invoke(cli_module.cli, ["--version"], prog_name="pi")
    CliRunner().invoke(cli_module.cli, ["plugins", "--json"], prog_name="pi")
    assert declared == []
