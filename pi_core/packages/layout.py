"""What a pi package holds: its `package.json` `pi` manifest, or the conventional folders."""

from __future__ import annotations

import fnmatch
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

KINDS = ("extensions", "skills", "prompts", "themes")


@dataclass
class PackageContents:
    """The paths of one package per kind (files or folders), after any filters."""

    paths: dict[str, list[Path]] = field(default_factory=lambda: {k: [] for k in KINDS})


def read_manifest(root: Path) -> dict[str, Any] | None:
    """Return the `pi` key of the package's `package.json`, or None when there is none."""
    try:
        data = json.loads((root / "package.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    manifest = data.get("pi") if isinstance(data, dict) else None
    return manifest if isinstance(manifest, dict) else None


def package_contents(root: Path, filters: dict[str, Any] | None = None) -> PackageContents:
    """Return a package's resources: the manifest's lists, else `extensions/`, `skills/`,
    `prompts/`, `themes/`; a filter list for a kind narrows it (`[]` loads none)."""
    manifest = read_manifest(root)
    contents = PackageContents()
    for kind in KINDS:
        if manifest is not None:
            entries = [e for e in manifest.get(kind) or [] if isinstance(e, str)]
            found = _expand(root, entries)
        else:
            folder = root / kind
            found = [folder] if folder.is_dir() else []
        wanted = (filters or {}).get(kind)
        if isinstance(wanted, list):
            found = _filter(root, found, [w for w in wanted if isinstance(w, str)])
        contents.paths[kind] = found
    return contents


def _expand(root: Path, entries: list[str]) -> list[Path]:
    """Resolve manifest entries: paths or globs, `!pattern` excluding what matched."""
    included = [e for e in entries if not e.startswith("!")]
    excluded = [e[1:] for e in entries if e.startswith("!")]
    found: list[Path] = []
    for entry in included:
        matches = sorted(root.glob(entry)) if any(c in entry for c in "*?[") else [root / entry]
        found += [m for m in matches if m.exists() and m not in found]
    return [p for p in found if not _matches(root, p, excluded)]


def _filter(root: Path, found: list[Path], wanted: list[str]) -> list[Path]:
    """Narrow to the files the settings filter names (globs, `!`, `+path`, `-path`)."""
    if not wanted:
        return []
    files = [f for p in found for f in ([p] if p.is_file() else sorted(p.rglob("*")))]
    files = [f for f in files if f.is_file()]
    include = [w for w in wanted if not w.startswith(("!", "+", "-"))]
    exclude = [w[1:] for w in wanted if w.startswith("!")]
    forced = {(root / w[1:]).resolve() for w in wanted if w.startswith("+")}
    dropped = {(root / w[1:]).resolve() for w in wanted if w.startswith("-")}
    kept = [f for f in files if (not include or _matches(root, f, include))]
    kept = [f for f in kept if not _matches(root, f, exclude)]
    kept += [f for f in forced if f.is_file() and f not in kept]
    return [f for f in kept if f.resolve() not in dropped]


def _matches(root: Path, path: Path, patterns: list[str]) -> bool:
    relative = path.relative_to(root).as_posix() if path.is_relative_to(root) else str(path)
    return any(fnmatch.fnmatch(relative, p.removeprefix("./")) for p in patterns)
