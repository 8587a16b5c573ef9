"""The tools a model is offered: a deny rule naming a whole tool removes it (as Claude Code)."""

from __future__ import annotations

from collections.abc import Sequence

from pi_plugin_claude.permissions.rules import PermissionRule, tool_name_matches


def offered_tools(names: Sequence[str], deny: Sequence[PermissionRule]) -> list[str]:
    """`names` without those a specifier-less deny rule (`Bash`, `mcp__server`) covers."""
    whole = [rule.tool for rule in deny if rule.specifier is None]
    return [name for name in names if not any(tool_name_matches(t, name) for t in whole)]
