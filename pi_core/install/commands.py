"""`pi install`, `pi remove` (alias `uninstall`), `pi list`, `pi update`: thin click wrappers
over `pi_core.install.operations`, which is imported only when one of them runs."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:
    from pi_core.install.operations import Listing, PluginInstaller
    from pi_core.packages.operations import PackageInstaller
    from pi_core.resources.settings import SettingsScope

PASSTHROUGH_KEY = "pi.installer_args"
LOCAL_HELP = "Use the project's .pi/settings.json instead of ~/.pi/agent/settings.json."


class PassThroughCommand(click.Command):
    """A command whose arguments after `--` go to pip / uv unchanged."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        """Set aside everything after the first `--`, then parse the rest as usual."""
        if "--" in args:
            at = args.index("--")
            ctx.meta[PASSTHROUGH_KEY] = args[at + 1 :]
            args = args[:at]
        return super().parse_args(ctx, args)


def index_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """Add pip's (and uv's) `--index-url` and `--extra-index-url` to a command."""
    command = click.option(
        "--extra-index-url",
        "extra_index_urls",
        multiple=True,
        metavar="URL",
        help="Also look for packages in this index (given to pip or uv).",
    )(command)
    return click.option(
        "--index-url", metavar="URL", help="Use this package index (given to pip or uv)."
    )(command)


def _index_args(index_url: str | None, extra_index_urls: tuple[str, ...]) -> list[str]:
    """Return the installer arguments for the index options."""
    args = ["--index-url", index_url] if index_url else []
    for url in extra_index_urls:
        args += ["--extra-index-url", url]
    return args


def _installer() -> PluginInstaller:
    from pi_core.install.operations import default_installer

    return default_installer(
        say=click.echo,
        warn=lambda message: click.echo(f"warning: {message}", err=True),
        relay=lambda line: click.echo(line, err=True),
    )


def _passthrough() -> list[str]:
    return list(click.get_current_context().meta.get(PASSTHROUGH_KEY, []))


def _run(action: Callable[[], Any]) -> Any:
    """Run an operation, turning its errors into a clean message and exit status 1."""
    from pi_core.install.errors import InstallError
    from pi_core.resources.settings import SettingsFileError

    try:
        return action()
    except (InstallError, SettingsFileError) as error:
        raise click.ClickException(str(error)) from None


@click.command("install", cls=PassThroughCommand)
@click.argument("spec")
@click.option("-l", "--local", is_flag=True, help=LOCAL_HELP)
@click.option("-e", "--editable", is_flag=True, help="Install a project folder in editable mode.")
@index_options
def install_command(
    spec: str,
    local: bool,
    editable: bool,
    index_url: str | None,
    extra_index_urls: tuple[str, ...],
) -> None:
    """Install a plugin into pi's environment and record it in settings.

    SPEC is a PyPI requirement (pi-plugin-foo, pi-plugin-foo==1.2), a git+URL, or a local path
    (a project folder, wheel or sdist); or a pi package: npm:NAME[@VER], git:HOST/PATH[@REF], an
    https:// repository, or a package folder (recorded under `packages`). Arguments after --
    go to pip (or uv) unchanged, e.g. `pi install ./my-plugin -- --no-build-isolation`.
    """
    scope: SettingsScope = "project" if local else "global"
    packages = _pi_packages(spec)
    if packages is not None:
        _run(lambda: packages.install(spec, scope))
        return
    installer = _installer()
    extra = [*_index_args(index_url, extra_index_urls), *_passthrough()]
    _run(lambda: installer.install(spec, scope=scope, editable=editable, extra=extra))


def _pi_packages(spec: str | None) -> PackageInstaller | None:
    """Return the pi-package installer when SPEC names a pi package (npm:, git:, a folder with
    package.json, or an entry of `packages`), else None (a Python distribution)."""
    from pathlib import Path

    from pi_core.config.paths import agent_dir
    from pi_core.packages.operations import PackageInstaller, is_pi_package_folder
    from pi_core.packages.source import is_package_source, parse_source

    cwd = Path.cwd()
    installer = PackageInstaller(cwd, agent_dir(), click.echo)
    if spec is None:
        return installer
    if is_package_source(spec) or is_pi_package_folder(spec, cwd):
        return installer
    identity = parse_source(spec, cwd).identity
    if any(p.source.identity == identity for p in installer.packages()):
        return installer
    return None


def _remove(spec: str, local: bool) -> None:
    packages = _pi_packages(spec)
    if packages is not None:
        _run(lambda: packages.remove(spec, "project" if local else "global"))
        return
    installer = _installer()
    _run(lambda: installer.remove(spec, scope="project" if local else "global"))


REMOVE_HELP = "Uninstall a plugin installed with `pi install` and drop its record from settings."
remove_command = click.Command(
    "remove",
    callback=_remove,
    params=[
        click.Argument(["spec"]),
        click.Option(["-l", "--local"], is_flag=True, help=LOCAL_HELP),
    ],
    help=REMOVE_HELP,
)
uninstall_command = click.Command(
    "uninstall",
    callback=_remove,
    params=remove_command.params,
    help=f"{REMOVE_HELP} (Same as `pi remove`.)",
    hidden=True,
)


@click.command("list")
@click.option("--json", "as_json", is_flag=True, help="Print the list as JSON.")
def list_command(as_json: bool) -> None:
    """List the plugins recorded in settings (installed or missing) and unrecorded ones."""
    listing = _run(lambda: _installer().listing())
    packages = _pi_packages(None)
    if as_json:
        data = listing.as_dict()
        if packages is not None:
            data["packages"] = [
                {"source": p.source.text, "scope": p.scope, "path": str(p.root)}
                | {"installed": p.installed}
                for p in packages.packages()
            ]
        click.echo(json.dumps(data, indent=2))
    else:
        click.echo(format_listing(listing))
        lines = packages.listing() if packages is not None else []
        if lines:
            click.echo("\n" + "\n".join(lines))


@click.command("update", cls=PassThroughCommand)
@click.argument("spec", required=False)
@index_options
def update_command(
    spec: str | None, index_url: str | None, extra_index_urls: tuple[str, ...]
) -> None:
    """Upgrade the recorded plugins, or the one SPEC names (pinned ones and paths are skipped).

    Arguments after -- go to pip (or uv) unchanged.
    """
    packages = _pi_packages(spec)
    if packages is not None:
        _run(lambda: packages.update(spec))
        if spec is not None:
            return
    installer = _installer()
    extra = [*_index_args(index_url, extra_index_urls), *_passthrough()]
    if not _run(lambda: installer.update(spec, extra=extra)):
        raise click.ClickException("some plugins could not be updated (see above)")


def format_listing(listing: Listing) -> str:
    """Render `pi list` for a terminal."""
    from pi_core.install.records import SCOPE_LABELS, SCOPES

    lines: list[str] = []
    for scope in SCOPES:
        items = [item for item in listing.recorded if item.scope == scope]
        problem = listing.problems.get(scope)
        if not items and problem is None:
            continue
        if lines:
            lines.append("")
        lines.append(f"{SCOPE_LABELS[scope].capitalize()} plugins ({listing.paths[scope]}):")
        if problem is not None:
            lines.append(f"  cannot read: {problem}")
        width = max((len(item.text) for item in items), default=0)
        for item in items:
            if item.error is not None:
                status = f"invalid: {item.error}"
            elif item.installed is None:
                status = f"missing; install it with: {item.install_command}"
            else:
                status = f"{item.installed.name} {item.installed.version}"
                if item.installed.editable:
                    status += " (editable)"
                if not item.installed.entry_points:
                    status += " (no `pi` entry point: pi loads nothing from it)"
            lines.append(f"  {item.text.ljust(width)}  {status}")
    if not lines:
        lines.append("No plugins recorded in settings.")
    if listing.unrecorded:
        lines += ["", "Installed pi plugins not recorded in settings:"]
        for dist in listing.unrecorded:
            lines.append(f"  {dist.name} {dist.version}  ({', '.join(dist.entry_points)})")
    return "\n".join(lines)


COMMANDS: tuple[click.Command, ...] = (
    install_command,
    remove_command,
    uninstall_command,
    list_command,
    update_command,
)
