"""Theme files: JSON found like the other resources; the interactive mode interprets them."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from pi_core.messages.base import WireModel
from pi_core.resources.diagnostics import ResourceDiagnostic, SourceInfo, collision
from pi_core.resources.discovery import list_entries, resolve_from

InfoFor = Callable[[str], SourceInfo | None]


class ThemeFile(WireModel):
    """A theme's name (its `name` field, else "unnamed"), file and parsed JSON."""

    name: str
    source_path: str
    data: dict[str, Any]
    source_info: SourceInfo | None = None


@dataclass
class ThemesResult:
    """Themes in precedence order, and the warnings and collisions found on the way."""

    themes: list[ThemeFile] = field(default_factory=list)
    diagnostics: list[ResourceDiagnostic] = field(default_factory=list)


def load_theme_file(path: str, info: SourceInfo | None = None) -> ThemeFile | ResourceDiagnostic:
    """Read a theme file; return the theme or a warning saying why it was skipped."""
    try:
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        return ResourceDiagnostic(type="warning", message=f"invalid theme: {error}", path=path)
    if not isinstance(data, dict):
        return ResourceDiagnostic(type="warning", message="theme must be a JSON object", path=path)
    name = data.get("name") if isinstance(data.get("name"), str) else None
    return ThemeFile(name=name or "unnamed", source_path=path, data=data, source_info=info)


def load_themes(paths: Sequence[str], cwd: str, info_for: InfoFor | None = None) -> ThemesResult:
    """Load themes from files and folders in order; the first theme of a name wins."""
    result = ThemesResult()
    loaded: list[ThemeFile | ResourceDiagnostic] = []
    for raw in paths:
        path = resolve_from(cwd, raw)
        if not os.path.exists(path):
            result.diagnostics.append(
                ResourceDiagnostic(type="warning", message="theme path does not exist", path=path)
            )
        elif os.path.isdir(path):
            for name, full, _is_dir, is_file in list_entries(path):
                if is_file and name.endswith(".json"):
                    loaded.append(load_theme_file(full, info_for(full) if info_for else None))
        elif path.endswith(".json"):
            loaded.append(load_theme_file(path, info_for(path) if info_for else None))
        else:
            result.diagnostics.append(
                ResourceDiagnostic(
                    type="warning", message="theme path is not a json file", path=path
                )
            )
    by_name: dict[str, ThemeFile] = {}
    collisions = []
    for item in loaded:
        if isinstance(item, ResourceDiagnostic):
            result.diagnostics.append(item)
        elif item.name in by_name:
            winner = by_name[item.name].source_path
            collisions.append(collision("theme", item.name, winner, item.source_path))
        else:
            by_name[item.name] = item
    result.themes = list(by_name.values())
    result.diagnostics += collisions
    return result
