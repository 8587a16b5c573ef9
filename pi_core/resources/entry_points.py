"""Resources shipped by installed distributions through the `pi.resources` entry-point group.

Each entry point names a folder inside an installed package; its name says what the folder holds:

    [project.entry-points."pi.resources"]
    skills = "pi_plugin_foo.skills"           # pi_plugin_foo/skills/<name>/SKILL.md
    prompts = "pi_plugin_foo.prompts"         # pi_plugin_foo/prompts/*.md (recursive)
    themes = "pi_plugin_foo.themes"           # pi_plugin_foo/themes/*.json
    "skills.extra" = "pi_plugin_foo.more"     # more folders of a kind: "<kind>.<anything>"

The value is a dotted path: a top-level package followed by folder names. It is located without
importing anything. A distribution whose name, or one of whose `pi` plugins, is in
`blockedPlugins` contributes no resources.
"""

from __future__ import annotations

import importlib.util
import os
import re
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from importlib.metadata import EntryPoint

from pi_core.plugins import entry_cache
from pi_core.resources.diagnostics import ResourceDiagnostic
from pi_core.resources.discovery import RESOURCE_KINDS, ResourceKind

RESOURCES_GROUP = "pi.resources"
PLUGINS_GROUP = "pi"


@dataclass(frozen=True)
class PackageFolder:
    """A folder of one kind of resource, from an installed distribution."""

    kind: ResourceKind
    folder: str
    distribution: str
    entry_point: str

    @property
    def source(self) -> str:
        """Return the source label used in SourceInfo (`package:<distribution>`)."""
        return f"package:{self.distribution}"


@dataclass
class PackageFolders:
    """The folders found, and the entry points that could not be used."""

    folders: list[PackageFolder] = field(default_factory=list)
    diagnostics: list[ResourceDiagnostic] = field(default_factory=list)


def _normalize(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _package_dir(top: str) -> str | None:
    try:
        spec = importlib.util.find_spec(top)
    except (ImportError, ValueError):
        return None
    if spec is None:
        return None
    if spec.submodule_search_locations:
        return str(next(iter(spec.submodule_search_locations)))
    return None


def _blocked(ep: EntryPoint, blocked: set[str]) -> bool:
    dist = ep.dist
    if dist is None:
        return False
    if _normalize(dist.name) in blocked:
        return True
    plugin_names = {e.name for e in dist.entry_points if e.group == PLUGINS_GROUP}
    return any(_normalize(name) in blocked for name in plugin_names)


def locate(ep: EntryPoint) -> str:
    """Return the folder an entry point names; raise ValueError when it cannot be found."""
    value = ep.value.strip()
    if ":" in value:
        raise ValueError(f"names an attribute ({value}); name a package folder instead")
    parts = value.split(".")
    base = _package_dir(parts[0])
    if base is None:
        raise ValueError(f"package {parts[0]!r} is not installed")
    folder = os.path.join(base, *parts[1:])
    if not os.path.isdir(folder):
        raise ValueError(f"folder {folder} does not exist")
    return folder


def package_folders(
    blocked: Collection[str] = (), eps: Iterable[EntryPoint] | None = None
) -> PackageFolders:
    """Find the resource folders of every installed distribution (sorted by distribution)."""
    result = PackageFolders()
    blocked_names = {_normalize(name) for name in blocked}
    found = list(entry_cache.entry_points(RESOURCES_GROUP) if eps is None else eps)
    found.sort(key=lambda ep: (ep.dist.name if ep.dist else "", ep.name))
    for ep in found:
        dist = ep.dist.name if ep.dist is not None else "?"
        where = f"{dist} (entry point {ep.name} = {ep.value})"
        if _blocked(ep, blocked_names):
            continue
        kind = ep.name.split(".", 1)[0]
        if kind not in RESOURCE_KINDS:
            message = f"{RESOURCES_GROUP} entry point {where}: name must start with one of "
            message += ", ".join(RESOURCE_KINDS)
            result.diagnostics.append(ResourceDiagnostic(type="warning", message=message))
            continue
        try:
            folder = locate(ep)
        except ValueError as error:
            message = f"{RESOURCES_GROUP} entry point {where}: {error}"
            result.diagnostics.append(ResourceDiagnostic(type="warning", message=message))
            continue
        result.folders.append(PackageFolder(kind, folder, dist, ep.name))
    return result
