"""What start-up takes from the `packages` setting: resource paths, and extensions that fail
closed (as does a package that is not installed: it may hold a gate)."""

from __future__ import annotations

from pathlib import Path

from pi_core.packages.configured import configured_packages, resource_folders
from pi_core.plugins.errors import PluginLoadError
from pi_core.plugins.foreign import ForeignExtension
from pi_core.resources.discovery import ResourceKind
from pi_core.resources.settings import SettingsManager


def package_resource_paths(
    settings: SettingsManager, cwd: str, agent_dir: str
) -> list[tuple[ResourceKind, str, str]]:
    """Return (kind, path, source) for the skills, prompts and themes of configured packages."""
    packages = configured_packages(
        settings.get_global_settings(), settings.get_project_settings(), Path(cwd), Path(agent_dir)
    )
    return resource_folders(packages)


def missing_package_notes(settings: SettingsManager, cwd: str, agent_dir: str) -> list[str]:
    """Return one line per configured package that is not installed."""
    packages = configured_packages(
        settings.get_global_settings(), settings.get_project_settings(), Path(cwd), Path(agent_dir)
    )
    return [
        f'package "{p.source.text}" not loaded: not installed ({p.root}); '
        f"install it with: pi install{' -l' if p.scope == 'project' else ''} {p.source.text}"
        for p in packages
        if not p.installed
    ]


def package_extensions(
    settings: SettingsManager, cwd: Path, agent_dir: Path
) -> tuple[list[ForeignExtension], list[PluginLoadError]]:
    """Return the configured packages' extensions, and an error per package not installed."""
    packages = configured_packages(
        settings.get_global_settings(), settings.get_project_settings(), cwd, agent_dir
    )
    extensions: list[ForeignExtension] = []
    errors: list[PluginLoadError] = []
    for package in packages:
        if package.installed:
            extensions += package.extensions()
            continue
        local = " -l" if package.scope == "project" else ""
        errors.append(
            PluginLoadError(
                package.source.text,
                str(package.root),
                "pi package is not installed",
                kind="recorded",
                fix=f"to install it: pi install{local} {package.source.text}; to start "
                f'without it: take it out of "packages" in settings.json',
            )
        )
    return extensions, errors
