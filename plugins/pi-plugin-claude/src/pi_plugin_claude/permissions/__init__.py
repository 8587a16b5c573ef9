"""Claude Code permissions: rules (`Bash(npm run test:*)`), modes, and the gate that asks.

Public surface: `PermissionPolicy.decide`, `PermissionGate.check`, `AskCallback`,
`PermissionAllow` / `PermissionDeny`, `parse_rule`, `parse_mode`.
"""

from pi_plugin_claude.permissions.engine import Decision, PermissionPolicy
from pi_plugin_claude.permissions.gate import (
    AskCallback,
    AskRequest,
    GateOutcome,
    PermissionAllow,
    PermissionAnswer,
    PermissionDenial,
    PermissionDeny,
    PermissionGate,
    no_prompt_message,
)
from pi_plugin_claude.permissions.modes import MODES, PermissionMode, parse_mode
from pi_plugin_claude.permissions.rules import PermissionRule, parse_rule, parse_rules

__all__ = [
    "MODES",
    "AskCallback",
    "AskRequest",
    "Decision",
    "GateOutcome",
    "PermissionAllow",
    "PermissionAnswer",
    "PermissionDenial",
    "PermissionDeny",
    "PermissionGate",
    "PermissionMode",
    "PermissionPolicy",
    "PermissionRule",
    "no_prompt_message",
    "parse_mode",
    "parse_rule",
    "parse_rules",
]
