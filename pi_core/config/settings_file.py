"""Reading `settings.json` without ever losing it: a malformed file is reported, never reset."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pi_core.config.paths import agent_dir as default_agent_dir
from pi_core.config.paths import project_dir, resolve_path


class SettingsFileError(ValueError):
    """A settings file that is not valid JSON (or not an object); names the path and line."""


def read_settings_file(path: Path) -> dict[str, Any]:
    """Return a settings file's object ({} if absent); raise SettingsFileError if it is broken."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except OSError as error:
        raise SettingsFileError(f"{path}: cannot read settings: {error.strerror}") from None
    if not text.strip():
        return {}
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise SettingsFileError(
            f"{path}:{error.lineno}:{error.colno}: invalid JSON in settings: {error.msg}"
        ) from None
    if not isinstance(data, dict):
        raise SettingsFileError(f"{path}: settings must be a JSON object")
    return data


@dataclass
class PluginSettings:
    """The settings that decide which plugins load: extension paths and blocked names."""

    extension_paths: list[Path] = field(default_factory=list)
    blocked: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def read_plugin_settings(cwd: str | Path, agent: Path | None = None) -> PluginSettings:
    """Collect `extensions` and `blockedPlugins` from global, then project settings."""
    agent = agent or default_agent_dir()
    result = PluginSettings()
    scopes = (
        (agent / "settings.json", agent),
        (project_dir(cwd) / "settings.json", project_dir(cwd)),
    )
    for path, base in scopes:
        try:
            data = read_settings_file(path)
        except SettingsFileError as error:
            result.errors.append(str(error))
            continue
        for entry in _string_list(data.get("extensions")):
            result.extension_paths.append(resolve_path(entry, base))
        result.blocked.extend(_string_list(data.get("blockedPlugins")))
    return result


def _string_list(value: Any) -> list[str]:
    if isinstance(value, list):
        return [item for item in value if isinstance(item, str)]
    return []
