"""Which Claude settings files leave the gate unable to judge: their deny rules are unknown.

A file that cannot be read or parsed, or whose `permissions.deny` / `permissions.ask` or
`hooks.PreToolUse` has the wrong shape, may forbid something that the other files allow.
Skipping it would let that through, so such a file closes the gate instead: every tool call is
refused with `closed_reason(...)` until the file is fixed. (An `allow` rule that cannot be used
is only skipped: dropping it never allows more.)
"""

from __future__ import annotations

from typing import Any

from pi_plugin_claude.permissions import parse_rules

GUARDING_RULES = ("deny", "ask")


def _rules_problem(permissions: Any) -> str | None:
    if permissions is None:
        return None
    if not isinstance(permissions, dict):
        return "permissions must be an object"
    for kind in GUARDING_RULES:
        _, problems = parse_rules(permissions.get(kind))
        if problems:
            return f"permissions.{kind}: {problems[0]}"
    return None


def _hooks_problem(hooks: Any) -> str | None:
    if hooks is None:
        return None
    if not isinstance(hooks, dict):
        return "hooks must be an object"
    guards = hooks.get("PreToolUse")
    if guards is not None and not isinstance(guards, list):
        return "hooks.PreToolUse must be a list"
    return None


def guard_problem(data: dict[str, Any]) -> str | None:
    """Why the deny/ask rules or PreToolUse hooks of a parsed file cannot be used, or None."""
    return _rules_problem(data.get("permissions")) or _hooks_problem(data.get("hooks"))


def closed_reason(unusable: list[str]) -> str:
    """The refusal every tool call gets while these files (`"<path>: <why>"`) are unusable."""
    files = "; ".join(unusable)
    return (
        f"Claude settings: {files}. The permission rules there are unknown, so no tool may run "
        "until the file is fixed (valid JSON, as Claude Code reads it) or removed."
    )
