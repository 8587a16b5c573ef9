"""What an administrator's settings lock down, as Claude Code reads it.

- `allowManagedPermissionRulesOnly: true` in a managed file: only the managed files' allow, ask
  and deny rules count; those of the user, project, local and `--settings` files and of
  `--allowedTools` / `--disallowedTools` are ignored, and rules a permission answer would add
  are not kept.
- `allowManagedHooksOnly: true` in a managed file: only the managed files' hooks run.
- `permissions.disableBypassPermissionsMode: "disable"` in any settings file: the
  `bypassPermissions` mode cannot be chosen (option, `defaultMode`, or a later switch).

The two managed-only keys count only in managed files. A value of the wrong type there counts
as `true` (and is reported): a typo must not open what the administrator meant to close.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

RULES_ONLY = "allowManagedPermissionRulesOnly"
HOOKS_ONLY = "allowManagedHooksOnly"
NO_BYPASS = "disableBypassPermissionsMode"
BYPASS_DISABLED = "Bypass permissions mode was disabled by settings"
"""Why a requested `bypassPermissions` mode was not used (Claude Code's words)."""
BYPASS_REFUSED = (
    "Cannot set permission mode to bypassPermissions because it is disabled by settings or "
    "configuration"
)
"""The error of a `set_permission_mode` control request for a disabled bypass mode."""


class Layer(Protocol):
    """One settings source: its kind (`policy` for managed files), file and parsed data."""

    source: str
    path: str | None
    data: dict[str, Any]


@dataclass
class Lockdown:
    """The switches in force for a session, and what was wrong with their values."""

    rules_only: bool = False
    hooks_only: bool = False
    bypass_disabled: bool = False
    problems: list[str] = field(default_factory=list)


def _switch(layer: Layer, key: str, problems: list[str]) -> bool:
    """A managed-only boolean of a managed file: on when `true` or of the wrong type."""
    value = layer.data.get(key)
    if value is None or value is False:
        return False
    if value is not True:
        problems.append(f"{layer.path or layer.source}: {key} must be true or false; taken as true")
    return True


def _bypass_off(layer: Layer, problems: list[str]) -> bool:
    """Whether a file's `permissions.disableBypassPermissionsMode` disables bypass mode."""
    permissions = layer.data.get("permissions")
    value = permissions.get(NO_BYPASS) if isinstance(permissions, dict) else None
    if value is None:
        return False
    if value != "disable":
        where = layer.path or layer.source
        problems.append(f'{where}: permissions.{NO_BYPASS} must be "disable"; taken as "disable"')
    return True


def read_lockdown(layers: Sequence[Layer]) -> Lockdown:
    """The switches the settings layers set (managed-only ones from `policy` layers only)."""
    found = Lockdown()
    for layer in layers:
        if layer.source == "policy":
            found.rules_only |= _switch(layer, RULES_ONLY, found.problems)
            found.hooks_only |= _switch(layer, HOOKS_ONLY, found.problems)
        found.bypass_disabled |= _bypass_off(layer, found.problems)
    return found


def first_allowed_mode(candidates: Sequence[str | None], bypass_disabled: bool) -> str | None:
    """The first requested mode that may be used (`bypassPermissions` is skipped when
    disabled), or None for the default."""
    for mode in candidates:
        if mode is None or (mode == "bypassPermissions" and bypass_disabled):
            continue
        return mode
    return None
