"""The `pi` command. Heavy modules are imported inside commands so start-up stays fast."""

from __future__ import annotations

import json
import os
from typing import TYPE_CHECKING, Any

import click

from pi_core._version import __version__
from pi_core.install.commands import COMMANDS as INSTALL_COMMANDS
from pi_core.install.config_command import config_command
from pi_core.plugin_template.command import plugin_group

if TYPE_CHECKING:
    from pi_core.plugins.manager import PluginManager


PLUGIN_COMMANDS_GROUP = "pi.commands"
"""Entry-point group of `pi NAME …` subcommands that distributions add (click commands)."""


class AgentContext(click.Context):
    """The agent command's context. That command *is* `pi`, so click's messages name `pi`."""

    @property
    def command_path(self) -> str:
        """Return the parent's path (`pi`): the hint reads `Try 'pi --help'`, not `pi run`."""
        return self.parent.command_path if self.parent is not None else super().command_path


class PiGroup(click.Group):
    """Subcommands by name; anything else runs the agent (`pi [options] [@files] [messages]`).

    The agent is a hidden command, `run`, that `parse_args` puts in front of any other
    arguments, so `pi --help` is the agent's help (its options, then the subcommands in its
    epilog). click-default-group does the same routing but names `pi run` in click's hints and
    answers `pi --help` with the group's help, hence this small group.
    """

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        """Send arguments that are not a subcommand (or --version) to the agent command."""
        if args and args[0] not in self.commands:
            self._add_plugin_command(args[0])
        if not args or (args[0] not in self.commands and args[0] not in ("-v", "--version")):
            args = ["run", *args]
        return super().parse_args(ctx, args)

    def _add_plugin_command(self, name: str) -> None:
        """Add the click command an installed distribution declares as `name` in the
        `pi.commands` entry-point group (how `pi mcp` arrives); looked up only for a bare word."""
        if not name or name.startswith(("-", "@")) or " " in name:
            return
        from pi_core.plugins import entry_cache

        for entry in entry_cache.entry_points(PLUGIN_COMMANDS_GROUP):
            if entry.name != name:
                continue
            command = entry.load()
            if isinstance(command, click.Command):
                self.add_command(command, name)
                return

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        """Return a subcommand; the agent command is imported only when it runs."""
        if name != "run":
            import gc

            gc.enable()  # only the agent modes start lean (pi_core.modes.lean)
        if name == "run":
            from pi_core.modes.command import run_command

            run_command.context_class = AgentContext
            return run_command
        return super().get_command(ctx, name)


@click.group(cls=PiGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "-v", "--version", message="%(version)s")
def cli() -> None:
    """pi: a terminal coding agent whose every capability is a plugin."""


@cli.command("plugins")
@click.option(
    "-e",
    "--extension",
    "extensions",
    multiple=True,
    metavar="PATH",
    help="Also load the plugin at PATH (a .py file, a package folder, or a folder of plugins).",
)
@click.option("--no-extensions", is_flag=True, help="Skip extension folders and settings paths.")
@click.option(
    "--block-plugin",
    "blocked",
    multiple=True,
    metavar="NAME",
    help="Do not load the plugin (or distribution) NAME.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
def plugins_command(
    extensions: tuple[str, ...], no_extensions: bool, blocked: tuple[str, ...], as_json: bool
) -> None:
    """List loaded plugins, where each came from, what it registered, and load errors."""
    from pi_core.modes.startup import config_warnings
    from pi_core.plugins.manager import LoadOptions, load_plugins

    manager = load_plugins(
        os.getcwd(),
        LoadOptions(
            extension_paths=list(extensions), no_extensions=no_extensions, blocked=list(blocked)
        ),
    )
    report = plugin_report(manager, config_warnings(manager, manager.model_registry()))
    if as_json:
        click.echo(json.dumps(report, indent=2))
    else:
        click.echo(format_plugin_report(report))


for _command in INSTALL_COMMANDS:  # install, remove (uninstall), list, update
    cli.add_command(_command)
cli.add_command(config_command)
cli.add_command(plugin_group)  # `pi plugin new`


def plugin_report(manager: PluginManager, config: list[str] | None = None) -> dict[str, Any]:
    """Describe the loaded plugins, the failures, the config file problems and the diagnostics
    as plain data."""
    registry = manager.registry
    return {
        "plugins": [
            {
                "name": p.name,
                "source": p.source.describe(),
                "origin": p.source.origin,
                "hooks": p.hooks,
                "registered": {k: v for k, v in p.registrations.summary().items() if v},
            }
            for p in manager.plugins
        ],
        "errors": [
            {"name": e.name, "source": e.source, "error": e.error, "fix": e.fix}
            for e in manager.errors
        ],
        "config": list(config if config is not None else manager.config_problems),
        "diagnostics": [
            {"level": d.level, "message": d.message}
            for d in [*manager.diagnostics, *registry.diagnostics]
        ],
    }


def format_plugin_report(report: dict[str, Any]) -> str:
    """Render the plugin report for a terminal."""
    plugins, errors = report["plugins"], report["errors"]
    lines = [f"{len(plugins)} plugin(s) loaded, {len(errors)} failed"]
    for plugin in plugins:
        lines.append("")
        lines.append(f"  {plugin['name']}  [{plugin['origin']}]  {plugin['source']}")
        if plugin["hooks"]:
            lines.append(f"      hooks: {', '.join(plugin['hooks'])}")
        for kind, names in plugin["registered"].items():
            shown = [f"/{n}" for n in names] if kind == "commands" else names
            lines.append(f"      {kind}: {', '.join(shown)}")
    if errors:
        lines += ["", "Failed to load:"]
        for error in errors:
            lines.append(f"  {error['name']}  {error['source']}")
            lines += [f"      {line}" for line in error["error"].splitlines()]
            if error["fix"]:
                lines.append(f"      {error['fix']}")
    if report["config"]:
        lines += ["", "Config files not (fully) used (left as they are):"]
        lines += [f"  {problem}" for problem in report["config"]]
    if report["diagnostics"]:
        lines += ["", "Notes:"]
        lines += [f"  {d['level']}: {d['message']}" for d in report["diagnostics"]]
    return "\n".join(lines)


def main() -> None:
    """Console-script entry point."""
    from pi_core.hidden_key import hide_api_key

    hide_api_key()  # first: it may re-exec the process
    from pi_core.modes.lean import begin_startup

    begin_startup()
    cli(prog_name="pi")
