"""Finding plugins: installed distributions, extension folders, settings paths and `-e` paths."""

from __future__ import annotations

from dataclasses import dataclass, field
from importlib.metadata import EntryPoint
from pathlib import Path
from typing import Literal

from pi_core.plugins import entry_cache
from pi_core.plugins.errors import Diagnostic, PluginLoadError
from pi_core.plugins.foreign import FOREIGN_EXTENSION_SUFFIXES, ForeignExtension
from pi_core.plugins.foreign import is_foreign_extension as _is_foreign_extension

ENTRY_POINT_GROUP = "pi"
__all__ = ["FOREIGN_EXTENSION_SUFFIXES", "Discovery", "PluginSource", "discover"]

SourceKind = Literal["distribution", "file", "package", "inline"]
Origin = Literal["installed", "global", "project", "settings", "cli", "sdk"]


@dataclass(frozen=True)
class PluginSource:
    """Where one plugin comes from, enough to load it and to tell users about it."""

    name: str
    kind: SourceKind
    origin: Origin
    path: Path | None = None
    distribution: str | None = None
    version: str | None = None
    entry_point: EntryPoint | None = None

    def describe(self) -> str:
        """Return a one-line description: the distribution and version, or the file path."""
        if self.kind == "distribution" and self.entry_point is not None:
            return f"{self.distribution} {self.version} (entry point {self.entry_point.value})"
        if self.path is not None:
            return str(self.path)
        return f"<{self.origin}>"


@dataclass
class Discovery:
    """The plugin sources found, in load order, and what was noticed on the way."""

    sources: list[PluginSource] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    errors: list[PluginLoadError] = field(default_factory=list)
    foreign: list[ForeignExtension] = field(default_factory=list)
    _seen_paths: set[Path] = field(default_factory=set)

    def add_path(self, path: Path, origin: Origin) -> None:
        """Add a file or package folder once (by resolved path)."""
        resolved = path.resolve()
        if resolved in self._seen_paths:
            return
        self._seen_paths.add(resolved)
        kind: SourceKind = "package" if resolved.is_dir() else "file"
        name = resolved.name if kind == "package" else resolved.stem
        self.sources.append(PluginSource(name, kind, origin, path=resolved))


def installed_sources() -> list[PluginSource]:
    """Return one source per `pi` entry point of the installed distributions, sorted by name."""
    sources = []
    for ep in entry_cache.entry_points(ENTRY_POINT_GROUP):
        dist = ep.dist
        sources.append(
            PluginSource(
                name=ep.name,
                kind="distribution",
                origin="installed",
                distribution=dist.name if dist is not None else None,
                version=dist.version if dist is not None else None,
                entry_point=ep,
            )
        )
    sources.sort(key=lambda s: (s.distribution or "", s.name))
    return sources


def scan_folder(folder: Path, origin: Origin, discovery: Discovery) -> None:
    """Add the plugins one level inside `folder`: `*.py` files and packages with `__init__.py`."""
    if not folder.is_dir():
        return
    for entry in sorted(folder.iterdir(), key=lambda p: p.name):
        if entry.name.startswith((".", "_")):
            continue
        if _is_python_plugin(entry):
            discovery.add_path(entry, origin)
        elif _is_foreign_extension(entry):
            discovery.foreign.append(ForeignExtension(entry.resolve(), origin))


def add_explicit_path(path: Path, origin: Origin, discovery: Discovery) -> None:
    """Add a path named in settings or with `-e`: a file, a package, or a folder of plugins.

    A path that does not exist is a load error (start-up stops); a TypeScript extension is
    recorded in `foreign` (it fails closed unless blocked)."""
    if not path.exists():
        fix = (
            'to start without it: take it out of "extensions" in settings.json'
            if origin == "settings"
            else ""
        )
        discovery.errors.append(
            PluginLoadError(path.stem, str(path), f"Extension path does not exist: {path}", fix=fix)
        )
    elif path.is_dir() and not (path / "__init__.py").is_file():
        scan_folder(path, origin, discovery)
    elif _is_foreign_extension(path):
        discovery.foreign.append(ForeignExtension(path.resolve(), origin))
    else:
        discovery.add_path(path, origin)


def _is_python_plugin(path: Path) -> bool:
    if path.is_file():
        return path.suffix == ".py"
    return path.is_dir() and (path / "__init__.py").is_file()


def discover(
    *,
    cwd: Path,
    agent_dir: Path,
    settings_paths: list[Path],
    cli_paths: list[Path],
    installed: bool = True,
    extensions: bool = True,
) -> Discovery:
    """Find every plugin source in load order: installed, global, project, settings, `-e`."""
    discovery = Discovery()
    if installed:
        discovery.sources.extend(installed_sources())
    if extensions:
        scan_folder(agent_dir / "extensions", "global", discovery)
        scan_folder(cwd / ".pi" / "extensions", "project", discovery)
        for path in settings_paths:
            add_explicit_path(path, "settings", discovery)
    for path in cli_paths:
        add_explicit_path(path, "cli", discovery)
    return discovery
