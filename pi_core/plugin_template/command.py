"""`pi plugin new NAME`: the click commands; the renderer is imported only when one runs."""

from __future__ import annotations

from pathlib import Path

import click


@click.group("plugin")
def plugin_group() -> None:
    """Tools for plugin authors."""


@plugin_group.command("new")
@click.argument("name")
@click.option(
    "--dir",
    "directory",
    type=click.Path(file_okay=False, path_type=Path),
    help="Folder to create (default: ./pi-plugin-NAME).",
)
@click.option("--description", help="One line for pyproject.toml and the README.")
@click.option("--author", help="The licence holder (default: git config user.name).")
def new_command(
    name: str, directory: Path | None, description: str | None, author: str | None
) -> None:
    """Create the distribution pi-plugin-NAME: a tool, a command, a flag and a hook, with tests.

    NAME is `hello` or `pi-plugin-hello`. The result builds, installs with `pi install -e`,
    passes ruff and `mypy --strict`, and its tests run it through a real agent session.
    """
    from pi_core.plugin_template.names import PluginNameError, plugin_names
    from pi_core.plugin_template.render import (
        PluginSpec,
        TargetExistsError,
        default_description,
        git_author,
        render_plugin,
    )

    try:
        names = plugin_names(name)
    except PluginNameError as error:
        raise click.BadParameter(str(error), param_hint="NAME") from None
    if description is not None and ("\n" in description or "\r" in description):
        raise click.BadParameter("give one line", param_hint="--description")
    spec = PluginSpec(
        names=names,
        description=description or default_description(names),
        author=author or git_author(),
    )
    target = directory if directory is not None else Path(names.dist)
    try:
        written = render_plugin(spec, target)
    except TargetExistsError as error:
        raise click.ClickException(str(error)) from None
    click.echo(f"Created {names.dist} in {target} ({len(written)} files). Next:")
    click.echo(f"  cd {target}")
    click.echo('  python -m pip install -e ".[test]" && python -m pytest')
    click.echo("  pi install -e .")
