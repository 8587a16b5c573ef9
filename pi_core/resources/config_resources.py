"""What `pi config` shows and toggles: skills, prompt templates, themes and plugins, each
enabled or disabled in settings the way pi's `pi config` records it."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pi_core.resources.discovery import RESOURCE_KINDS, resolve_resources
from pi_core.resources.settings import SettingsManager

ConfigKind = Literal["plugins", "skills", "prompts", "themes"]
Scope = Literal["global", "project"]


@dataclass(frozen=True)
class ConfigItem:
    """One resource: its kind, path (or plugin name), whether it is enabled, where it is set."""

    kind: ConfigKind
    path: str
    enabled: bool
    scope: Scope
    group: str
    base_dir: str
    package: str | None = None  # the `packages` entry's source for a package's resource


def list_config_items(cwd: str, agent_dir: str, settings: SettingsManager) -> list[ConfigItem]:
    """Every plugin, skill, prompt template and theme pi would offer to toggle, in order."""
    items = _plugin_items(cwd, agent_dir, settings)
    resolved = resolve_resources(
        cwd, agent_dir, settings.get_global_settings(), settings.get_project_settings()
    )
    for kind in RESOURCE_KINDS:
        for resource in resolved[kind]:
            info = resource.info
            scope: Scope = "project" if info.scope == "project" else "global"
            package = info.source if info.origin == "package" else None
            if package is None:
                base = os.path.join(cwd, ".pi") if scope == "project" else agent_dir
            else:
                base = info.base_dir or os.path.dirname(resource.path)
            group = _group(info.source, scope, package)
            items.append(
                ConfigItem(kind, resource.path, resource.enabled, scope, group, base, package)
            )
    return items


def set_enabled(settings: SettingsManager, item: ConfigItem, enabled: bool) -> None:
    """Record `+path` (enabled) or `-path` (disabled) as pi does; plugins use `blockedPlugins`."""
    raw = (
        settings.get_project_settings()
        if item.scope == "project"
        else settings.get_global_settings()
    )
    if item.kind == "plugins":
        blocked = [name for name in raw.get("blockedPlugins") or [] if name != item.path]
        settings.set("blockedPlugins", blocked if enabled else [*blocked, item.path], item.scope)
        return
    pattern = os.path.relpath(item.path, item.base_dir)
    if item.package is None:
        current = [e for e in raw.get(item.kind) or [] if _stripped(e) != pattern]
        settings.set(item.kind, [*current, f"{'+' if enabled else '-'}{pattern}"], item.scope)
        return
    settings.set("packages", _toggle_package(raw.get("packages") or [], item, pattern, enabled),
                 item.scope)  # fmt: skip


def _toggle_package(
    packages: list[Any], item: ConfigItem, pattern: str, enabled: bool
) -> list[Any]:
    updated = list(packages)
    for index, entry in enumerate(updated):
        source = entry if isinstance(entry, str) else entry.get("source")
        if source != item.package:
            continue
        record = {"source": entry} if isinstance(entry, str) else dict(entry)
        current = [e for e in record.get(item.kind) or [] if _stripped(e) != pattern]
        current.append(f"{'+' if enabled else '-'}{pattern}")
        record[item.kind] = current
        updated[index] = record
    return updated


def _stripped(entry: str) -> str:
    return entry[1:] if entry.startswith(("!", "+", "-")) else entry


def _group(source: str, scope: Scope, package: str | None) -> str:
    if package is not None:
        return package
    if source == "auto":
        return "User (~/.pi/agent/)" if scope == "global" else "Project (.pi/)"
    return "User settings" if scope == "global" else "Project settings"


def _plugin_items(cwd: str, agent_dir: str, settings: SettingsManager) -> list[ConfigItem]:
    """Plugins found where pi looks for extensions (and installed ones); none is imported."""
    from pi_core.plugins.sources import discover

    blocked = set(settings.get_blocked_plugins())
    found = discover(cwd=Path(cwd), agent_dir=Path(agent_dir), settings_paths=[], cli_paths=[])
    items = []
    for source in found.sources:
        scope: Scope = "project" if source.origin == "project" else "global"
        group = source.distribution or ("Project (.pi/)" if scope == "project" else "User")
        enabled = not blocked & {source.name, source.distribution}
        items.append(ConfigItem("plugins", source.name, enabled, scope, group,
                                str(source.path.parent) if source.path else ""))  # fmt: skip
    return items
