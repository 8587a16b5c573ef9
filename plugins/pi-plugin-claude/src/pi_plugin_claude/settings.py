"""Claude Code's settings files: user, project, local, `--settings` and managed, merged in
Claude's order.

`load_claude_settings(cwd, setting_sources=..., settings=...)` is what pi-claude calls with its
`--setting-sources` and `--settings` options. Later sources win for plain keys; permission rule
lists, additional directories and hooks are concatenated over all sources.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pi_plugin_claude import managed
from pi_plugin_claude.managed_only import (
    BYPASS_DISABLED,
    Lockdown,
    first_allowed_mode,
    read_lockdown,
)
from pi_plugin_claude.permissions import (
    PermissionMode,
    PermissionPolicy,
    PermissionRule,
    parse_mode,
    parse_rules,
)
from pi_plugin_claude.settings_check import GUARDING_RULES, guard_problem

SETTING_SOURCES = ("user", "project", "local")
"""Claude's file sources, lowest precedence first; `--settings` comes after all of them."""


def claude_config_dir(home: str | None = None) -> Path:
    """`$CLAUDE_CONFIG_DIR`, else `~/.claude`."""
    override = os.environ.get("CLAUDE_CONFIG_DIR")
    if override:
        return Path(os.path.expanduser(override))
    return Path(home or os.path.expanduser("~")) / ".claude"


@dataclass
class SettingsLayer:
    """One source's settings, where they came from, and the folder relative rules start from."""

    source: str
    path: str | None
    data: dict[str, Any]
    base_dir: str


@dataclass
class ClaudeSettings:
    """The merged settings, the layers they came from, and every problem found loading them."""

    cwd: str
    layers: list[SettingsLayer] = field(default_factory=list)
    merged: dict[str, Any] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    unusable: list[str] = field(default_factory=list)
    """`"<path>: <why>"` of each file whose deny rules are unknown: the gate must stay closed."""
    lockdown: Lockdown = field(default_factory=Lockdown)
    """The managed-only switches, and whether bypass mode is disabled (see managed_only)."""

    def get(self, key: str, default: Any = None) -> Any:
        """A merged top-level key (`model`, `env`, `hooks` …)."""
        return self.merged.get(key, default)

    def permission_rules(self, kind: str) -> list[PermissionRule]:
        """Every `permissions.<kind>` rule of every layer, each relative to its own project."""
        rules: list[PermissionRule] = []
        for layer in self.layers:
            if self.lockdown.rules_only and layer.source != "policy":
                continue  # allowManagedPermissionRulesOnly
            permissions = layer.data.get("permissions")
            if not isinstance(permissions, dict):
                continue
            parsed, problems = parse_rules(permissions.get(kind), layer.base_dir)
            rules += parsed
            if kind in GUARDING_RULES and self._closes_gate(layer):
                continue  # reported once already, as the reason the gate is closed
            self.problems += [f"{layer.path or layer.source}: {p}" for p in problems]
        return rules

    def _closes_gate(self, layer: SettingsLayer) -> bool:
        """Whether `layer`'s file is among the unusable ones (its problem already reported)."""
        names = {layer.path or layer.source, "--settings" if layer.source == "flag" else ""}
        return any(entry.split(": ", 1)[0] in names for entry in self.unusable)

    def default_mode(self) -> PermissionMode:
        """`permissions.defaultMode` of the highest layer that sets it, else `default`."""
        value = self.merged.get("permissions", {}).get("defaultMode")
        if isinstance(value, str):
            try:
                return parse_mode(value)
            except ValueError as error:
                self.problems.append(f"permissions.defaultMode: {error}")
        return "default"

    def permission_policy(
        self,
        mode: str | None = None,
        allowed_tools: Sequence[str] = (),
        disallowed_tools: Sequence[str] = (),
        add_dirs: Sequence[str] = (),
    ) -> PermissionPolicy:
        """Build the session's policy: settings rules plus `--allowedTools`/`--disallowedTools`."""
        lock = self.lockdown
        if lock.rules_only:  # allowManagedPermissionRulesOnly: no command-line rules either
            allowed_tools, disallowed_tools = (), ()
        extra_allow, problems_allow = parse_rules(list(allowed_tools), self.cwd)
        extra_deny, problems_deny = parse_rules(list(disallowed_tools), self.cwd)
        self.problems += problems_allow + problems_deny
        dirs = list(self.merged.get("permissions", {}).get("additionalDirectories") or [])
        requested = [parse_mode(mode) if mode else None, self.default_mode()]
        chosen = first_allowed_mode(requested, lock.bypass_disabled)
        if lock.bypass_disabled and next(filter(None, requested), None) == "bypassPermissions":
            self.problems.append(BYPASS_DISABLED)
        return PermissionPolicy(
            mode=parse_mode(chosen) if chosen else "default",
            rules_locked=lock.rules_only,
            bypass_disabled=lock.bypass_disabled,
            allow=self.permission_rules("allow") + extra_allow,
            ask=self.permission_rules("ask"),
            deny=self.permission_rules("deny") + extra_deny,
            cwd=self.cwd,
            additional_directories=[d for d in dirs if isinstance(d, str)] + list(add_dirs),
        )

    def hooks(self) -> dict[str, list[dict[str, Any]]]:
        """Every layer's `hooks`, event by event, in load order (lowest precedence first)."""
        merged: dict[str, list[dict[str, Any]]] = {}
        for layer in self.layers:
            if self.lockdown.hooks_only and layer.source != "policy":
                continue  # allowManagedHooksOnly
            hooks = layer.data.get("hooks")
            if hooks is None:
                continue
            if not isinstance(hooks, dict):
                self.problems.append(f"{layer.path or layer.source}: hooks must be an object")
                continue
            for event, matchers in hooks.items():
                if not isinstance(matchers, list):
                    self.problems.append(
                        f"{layer.path or layer.source}: hooks.{event} must be a list"
                    )
                    continue
                merged.setdefault(event, []).extend(m for m in matchers if isinstance(m, dict))
        return merged


def _merge(base: dict[str, Any], layer: dict[str, Any]) -> dict[str, Any]:
    """Later layers win key by key; `permissions` and `env` merge one level deeper."""
    out = dict(base)
    for key, value in layer.items():
        if key in ("permissions", "env") and isinstance(value, dict):
            nested = dict(out.get(key) or {})
            for inner, inner_value in value.items():
                if isinstance(inner_value, list) and isinstance(nested.get(inner), list):
                    nested[inner] = nested[inner] + inner_value
                else:
                    nested[inner] = inner_value
            out[key] = nested
        else:
            out[key] = value
    return out


def _read_file(path: Path, result: ClaudeSettings) -> dict[str, Any] | None:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as error:
        why = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        _unusable(result, str(path), f"cannot read settings: {why}")
        return None
    return _parse(text, str(path), result)


def _unusable(result: ClaudeSettings, where: str, why: str) -> None:
    result.problems.append(f"{where}: {why}; no tool may run until it is fixed")
    result.unusable.append(f"{where}: {why}")


def _parse(text: str, where: str, result: ClaudeSettings) -> dict[str, Any] | None:
    try:
        data = json.loads(text) if text.strip() else {}
    except json.JSONDecodeError as error:
        _unusable(result, where, f"invalid JSON: {error.msg} (line {error.lineno})")
        return None
    if not isinstance(data, dict):
        _unusable(result, where, "settings must be a JSON object")
        return None
    problem = guard_problem(data)
    if problem is not None:
        _unusable(result, where, problem)
    if not isinstance(data.get("permissions", {}), dict):
        del data["permissions"]  # already unusable; merging it would fail
    return data


def parse_setting_sources(value: str | list[str] | None) -> list[str] | None:
    """Parse `--setting-sources user,project` (None: every source); raise on an unknown one."""
    if value is None:
        return None
    names = [n.strip() for n in value.split(",")] if isinstance(value, str) else list(value)
    names = [n for n in names if n]
    unknown = [n for n in names if n not in SETTING_SOURCES]
    if unknown:
        raise ValueError(
            f"Invalid setting source {unknown[0]!r}: expected user, project and/or local"
        )
    return names


def load_claude_settings(
    cwd: str | os.PathLike[str],
    setting_sources: str | list[str] | None = None,
    settings: str | None = None,
    home: str | None = None,
) -> ClaudeSettings:
    """Load Claude's settings for `cwd`: the chosen sources, then `--settings` (a file or JSON)."""
    folder = str(Path(cwd).resolve())
    result = ClaudeSettings(cwd=folder)
    sources = parse_setting_sources(setting_sources)
    user_dir = claude_config_dir(home)
    project_dir = Path(folder) / ".claude"
    files = {
        "user": (user_dir / "settings.json", str(Path(home or os.path.expanduser("~")))),
        "project": (project_dir / "settings.json", folder),
        "local": (project_dir / "settings.local.json", folder),
    }
    for source in SETTING_SOURCES:
        if sources is not None and source not in sources:
            continue
        path, base = files[source]
        data = _read_file(path, result)
        if data is not None:
            result.layers.append(SettingsLayer(source, str(path), data, base))
    if settings:
        stripped = settings.strip()
        if stripped.startswith("{"):
            data = _parse(stripped, "--settings", result)
            path_text = None
        else:
            path_text = os.path.join(folder, os.path.expanduser(stripped))
            data = _read_file(Path(path_text), result)
            if data is None and not os.path.exists(path_text):
                result.problems.append(f"--settings: file not found: {path_text}")
        if data is not None:
            result.layers.append(SettingsLayer("flag", path_text, data, folder))
    for path in managed.managed_files():
        data = _read_file(path, result)
        if data is not None:
            result.layers.append(SettingsLayer("policy", str(path), data, folder))
    for layer in result.layers:
        result.merged = _merge(result.merged, layer.data)
    result.lockdown = read_lockdown(result.layers)
    result.problems += result.lockdown.problems
    return result
