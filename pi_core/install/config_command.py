"""`pi config`: list the plugins, skills, prompt templates and themes pi would load, and enable or
disable them in settings (pi's is a TUI; ours is a command). It never starts the agent."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    from pi_core.resources.config_resources import ConfigItem
    from pi_core.resources.settings import SettingsManager

KIND_LABELS = {"plugins": "Plugins", "skills": "Skills", "prompts": "Prompts", "themes": "Themes"}


@click.group(
    "config",
    invoke_without_command=True,
    help="List resources (plugins, skills, prompts, themes); enable or disable them.",
)
@click.pass_context
def config_command(ctx: click.Context) -> None:
    """Without a subcommand: list every resource with [x] (enabled) or [ ] (disabled)."""
    if ctx.invoked_subcommand is not None:
        return
    items, _settings = _load()
    if not items:
        click.echo("No resources found.")
        return
    group = None
    for item in items:
        heading = f"{item.group} · {KIND_LABELS[item.kind]}"
        if heading != group:
            group = heading
            click.echo(heading)
        click.echo(f"  [{'x' if item.enabled else ' '}] {item.path}")


@config_command.command("enable")
@click.argument("resources", nargs=-1, required=True)
def enable_command(resources: tuple[str, ...]) -> None:
    """Enable resources (a path as `pi config` lists it, or a plugin's name)."""
    _toggle(resources, enabled=True)


@config_command.command("disable")
@click.argument("resources", nargs=-1, required=True)
def disable_command(resources: tuple[str, ...]) -> None:
    """Disable resources (a path as `pi config` lists it, or a plugin's name)."""
    _toggle(resources, enabled=False)


def _load() -> tuple[list[ConfigItem], SettingsManager]:
    from pi_core.config.paths import agent_dir
    from pi_core.resources.config_resources import list_config_items
    from pi_core.resources.settings import SettingsManager

    cwd, agent = os.getcwd(), str(agent_dir())
    settings = SettingsManager.create(cwd, agent)
    return list_config_items(cwd, agent, settings), settings


def _toggle(resources: tuple[str, ...], *, enabled: bool) -> None:
    from pi_core.resources.config_resources import set_enabled

    items, settings = _load()
    for wanted in resources:
        target = wanted if "/" not in wanted else os.path.abspath(wanted)
        matches = [i for i in items if target in (i.path, os.path.abspath(i.path))]
        if not matches:
            raise click.ClickException(f"No resource {wanted!r}: `pi config` lists them")
        for item in matches:
            set_enabled(settings, item, enabled)
            click.echo(f"{'Enabled' if enabled else 'Disabled'} {item.kind[:-1]} {item.path}")
