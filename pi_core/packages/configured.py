"""The packages named in the `packages` setting (global, then project), found on disk."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pi_core.packages.layout import PackageContents, package_contents
from pi_core.packages.source import PackageSource, Scope, install_path, parse_source
from pi_core.plugins.foreign import ForeignExtension, is_foreign_extension
from pi_core.resources.discovery import RESOURCE_KINDS, ResourceKind


@dataclass(frozen=True)
class ConfiguredPackage:
    """One `packages` entry: its source, scope, folder on disk and settings filters."""

    source: PackageSource
    scope: Scope
    root: Path
    filters: dict[str, Any]

    @property
    def installed(self) -> bool:
        """Tell whether its folder exists."""
        return self.root.is_dir() or (self.source.kind == "local" and self.root.is_file())

    def contents(self) -> PackageContents:
        """Return its resources after the settings filters."""
        if self.root.is_file():
            contents = PackageContents()
            contents.paths["extensions"] = [self.root]
            return contents
        return package_contents(self.root, self.filters)

    def extensions(self) -> list[ForeignExtension]:
        """Return its TypeScript/JavaScript extensions (each fails closed unless blocked)."""
        found: list[Path] = []
        for path in self.contents().paths["extensions"]:
            if path.is_file() or (path / "index.ts").is_file() or (path / "index.js").is_file():
                found.append(path)
            elif path.is_dir():
                found += [p for p in sorted(path.iterdir()) if is_foreign_extension(p)]
        return [ForeignExtension(p.resolve(), "package", self.source.text) for p in found]


def configured_packages(
    global_settings: dict[str, Any],
    project_settings: dict[str, Any],
    cwd: Path,
    agent_dir: Path,
) -> list[ConfiguredPackage]:
    """Return the packages of both scopes; an entry in project settings wins over the same
    package (npm name, repository, path) in global settings."""
    found: dict[str, ConfiguredPackage] = {}
    scoped: tuple[tuple[Scope, dict[str, Any], Path], ...] = (
        ("global", global_settings, agent_dir),
        ("project", project_settings, cwd / ".pi"),
    )
    for scope, values, base in scoped:
        entries = values.get("packages")
        for entry in entries if isinstance(entries, list) else []:
            text, filters = _entry(entry)
            if text is None:
                continue
            source = parse_source(text, base)
            root = install_path(source, scope, cwd, agent_dir)
            found[source.identity] = ConfiguredPackage(source, scope, root, filters)
    return list(found.values())


def _entry(entry: Any) -> tuple[str | None, dict[str, Any]]:
    if isinstance(entry, str):
        return entry, {}
    if isinstance(entry, dict) and isinstance(entry.get("source"), str):
        return entry["source"], {k: v for k, v in entry.items() if k != "source"}
    return None, {}


def resource_folders(
    packages: list[ConfiguredPackage],
) -> list[tuple[ResourceKind, str, str]]:
    """Return (kind, path, source label) for every skill, prompt and theme path of the
    installed packages."""
    folders: list[tuple[ResourceKind, str, str]] = []
    for package in packages:
        if not package.installed:
            continue
        contents = package.contents()
        for kind in RESOURCE_KINDS:
            for path in contents.paths[kind]:
                folders.append((kind, str(path), package.source.text))
    return folders
