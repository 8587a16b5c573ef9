"""What is installed in the environment pi runs in: distributions, their `pi` entry points, and
where each was installed from (the PEP 610 `direct_url.json` pip and uv write)."""

from __future__ import annotations

import importlib
import json
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit
from urllib.request import url2pathname

from pi_core.install.spec import PluginSpec, git_location, normalize_name

ENTRY_POINT_GROUP = "pi"


@dataclass(frozen=True)
class Installed:
    """One installed distribution as the installer reports it."""

    name: str
    version: str
    entry_points: tuple[str, ...]
    editable: bool = False

    @property
    def key(self) -> str:
        """Return the canonical distribution name."""
        return normalize_name(self.name)


def refresh() -> None:
    """Forget cached metadata so distributions a subprocess just installed are seen."""
    importlib.invalidate_caches()


def describe(dist: metadata.Distribution) -> Installed:
    """Return the name, version, `pi` entry points and editable flag of a distribution."""
    names = tuple(sorted(ep.name for ep in dist.entry_points.select(group=ENTRY_POINT_GROUP)))
    info = direct_url(dist) or {}
    dir_info = info.get("dir_info")
    editable = isinstance(dir_info, dict) and dir_info.get("editable") is True
    return Installed(dist.name, dist.version, names, editable)


def direct_url(dist: metadata.Distribution) -> dict[str, Any] | None:
    """Return a distribution's `direct_url.json` (where it was installed from), if any."""
    text = dist.read_text("direct_url.json")
    if not text:
        return None
    try:
        data = json.loads(text)
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def find_distribution(spec: PluginSpec) -> metadata.Distribution | None:
    """Return the installed distribution a spec names: by name, else by where it came from."""
    if spec.name:
        try:
            return metadata.distribution(spec.name)
        except metadata.PackageNotFoundError:
            return None
    if spec.location is None:
        return None
    for dist in metadata.distributions():
        if _installed_from(dist, spec):
            return dist
    return None


def _installed_from(dist: metadata.Distribution, spec: PluginSpec) -> bool:
    info = direct_url(dist)
    url = info.get("url") if info else None
    if not isinstance(url, str) or info is None:
        return False
    if spec.kind == "path" and spec.path is not None:
        parts = urlsplit(url)
        if parts.scheme != "file":
            return False
        return Path(url2pathname(parts.path)).resolve() == spec.path
    if spec.kind == "git" and spec.url is not None:
        vcs = info.get("vcs_info")
        if not isinstance(vcs, dict) or vcs.get("vcs") != "git":
            return False
        subdirectory = info.get("subdirectory")
        if isinstance(subdirectory, str) and subdirectory:
            url = f"{url}#subdirectory={subdirectory}"
        return git_location(url) == git_location(spec.url)
    return False


def plugin_distributions() -> list[Installed]:
    """Return every installed distribution with a `pi` entry point, by name, first on the path."""
    found: dict[str, Installed] = {}
    for dist in metadata.distributions():
        if not dist.entry_points.select(group=ENTRY_POINT_GROUP):
            continue
        item = describe(dist)
        found.setdefault(item.key, item)
    return sorted(found.values(), key=lambda item: item.key)
