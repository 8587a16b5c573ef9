"""Deciding one tool call: deny rules, then ask, then allow, then what the mode says."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any, Literal

from pi_plugin_claude.permissions.modes import FILE_EDIT_TOOLS, READ_ONLY_TOOLS, PermissionMode
from pi_plugin_claude.permissions.path_rules import call_targets, rule_applies, search_note
from pi_plugin_claude.permissions.paths import is_inside, root_spellings
from pi_plugin_claude.permissions.rules import (
    READ_TOOLS,
    PermissionRule,
    describe_call,
)

Behavior = Literal["allow", "deny", "ask"]
ReasonType = Literal["rule", "mode", "readOnly", "workingDir", "default", "hook"]


@dataclass(frozen=True)
class Decision:
    """What the rules and the mode say about a call, and why."""

    behavior: Behavior
    reason_type: ReasonType
    message: str = ""
    rule: PermissionRule | None = None
    unasked_message: str | None = None
    """For an "ask": what the model reads when nobody can be asked (plan mode's refusal)."""


@dataclass
class PermissionPolicy:
    """The rules and mode in force for a session (the mode changes as the session runs)."""

    mode: PermissionMode = "default"
    allow: list[PermissionRule] = field(default_factory=list)
    ask: list[PermissionRule] = field(default_factory=list)
    deny: list[PermissionRule] = field(default_factory=list)
    cwd: str = field(default_factory=os.getcwd)
    additional_directories: list[str] = field(default_factory=list)
    home: str = field(default_factory=lambda: os.path.expanduser("~"))
    rules_locked: bool = False
    """Managed settings allow only their own rules: updates from permission answers are dropped."""
    bypass_disabled: bool = False
    """`bypassPermissions` may not be switched to (`disableBypassPermissionsMode`)."""

    def working_dirs(self) -> list[str]:
        """The cwd and every added directory, absolute."""
        return [os.path.abspath(self.cwd)] + [
            os.path.abspath(os.path.join(self.cwd, os.path.expanduser(d)))
            for d in self.additional_directories
        ]

    def in_working_dirs(self, path: str) -> bool:
        """Whether `path` lies inside the cwd or an added directory (each as given or real)."""
        return is_inside(path, root_spellings(self.working_dirs()))

    def _targets_inside(self, tool_name: str, tool_input: dict[str, Any]) -> bool:
        """Whether every spelling of every path the file tool call names is in a working dir."""
        targets = call_targets(tool_name, tool_input, self.cwd, self.home)
        return all(self.in_working_dirs(target) for target in targets)

    def _first(
        self, rules: list[PermissionRule], tool_name: str, tool_input: dict[str, Any]
    ) -> PermissionRule | None:
        for rule in rules:
            if rule_applies(rule, tool_name, tool_input, self.cwd, self.home):
                return rule
        return None

    def _allowed_by_rules(
        self, tool_name: str, tool_input: dict[str, Any]
    ) -> PermissionRule | None:
        for rule in self.allow:
            if rule_applies(rule, tool_name, tool_input, self.cwd, self.home, every=True):
                return rule
        return None

    def decide(self, tool_name: str, tool_input: dict[str, Any]) -> Decision:
        """Decide a call: deny rules first, then ask rules, then allow rules, then the mode."""
        command = tool_input.get("command")
        if tool_name == "Bash" and isinstance(command, str):
            return self._decide_bash(tool_input, command)
        denied = self._first(self.deny, tool_name, tool_input)
        if denied is not None:
            message = f"Permission to use {describe_call(tool_name, tool_input)} has been denied."
            message += search_note(denied, tool_name, tool_input, self.cwd, self.home)
            return Decision("deny", "rule", message, denied)
        if tool_name == "ExitPlanMode":
            if self.mode == "bypassPermissions":
                return Decision("allow", "mode")
            return Decision("ask", "mode", "Exit plan mode?")
        if self.mode == "bypassPermissions":
            return Decision("allow", "mode")
        asked = self._first(self.ask, tool_name, tool_input)
        if asked is not None:
            return Decision("ask", "rule", f"Permission rule {asked} requires approval", asked)
        if self.mode == "plan" and not self._read_only(tool_name, tool_input):
            return self._plan_refusal(tool_name)
        allowed = self._allowed_by_rules(tool_name, tool_input)
        if allowed is not None:
            return Decision("allow", "rule", rule=allowed)
        if self._read_only(tool_name, tool_input):
            if tool_name not in READ_TOOLS or self._targets_inside(tool_name, tool_input):
                return Decision("allow", "readOnly")
            return self._unanswered(tool_name, tool_input, "workingDir")
        if self.mode == "acceptEdits" and self._edit_in_working_dirs(tool_name, tool_input):
            return Decision("allow", "mode")
        return self._unanswered(tool_name, tool_input, "default")

    def _decide_bash(self, tool_input: dict[str, Any], command: str) -> Decision:
        # Imported on the first Bash call: a run without one never loads the command walker (the
        # grammar itself loads with the plugin, permissions.grammar).
        from pi_plugin_claude.permissions.bash_policy import decide_bash

        verdict = decide_bash(self, command)
        if verdict.outcome == "deny":
            message = f"Permission to use {describe_call('Bash', tool_input)} has been denied."
            return Decision("deny", "rule", message, verdict.rule)
        if verdict.outcome == "allow":
            return Decision("allow", verdict.reason, rule=verdict.rule)
        if verdict.outcome == "ask" and verdict.rule is not None:
            return Decision(
                "ask", "rule", f"Permission rule {verdict.rule} requires approval", verdict.rule
            )
        if verdict.outcome == "plan":
            return self._plan_refusal("Bash")
        reason: ReasonType = "workingDir" if verdict.outcome == "outside" else "default"
        return self._unanswered("Bash", tool_input, reason)

    def _plan_refusal(self, tool_name: str) -> Decision:
        # Claude Code 2.1.x hands the call to an SDK host; with nobody to ask it is refused.
        refusal = (
            f"{tool_name} is not allowed in plan mode: the session is read-only until the "
            "plan is approved (ExitPlanMode)."
        )
        return Decision("ask", "mode", refusal, unasked_message=refusal)

    def _unanswered(
        self, tool_name: str, tool_input: dict[str, Any], reason_type: ReasonType
    ) -> Decision:
        if self.mode == "dontAsk":
            return Decision(
                "deny",
                "mode",
                f"Permission to use {describe_call(tool_name, tool_input)} has been denied "
                "because Claude Code is running in don't ask mode.",
            )
        return Decision("ask", reason_type, f"{tool_name} requires approval")

    def _read_only(self, tool_name: str, tool_input: dict[str, Any]) -> bool:
        return tool_name in READ_ONLY_TOOLS

    def _edit_in_working_dirs(self, tool_name: str, tool_input: dict[str, Any]) -> bool:
        if tool_name in FILE_EDIT_TOOLS:
            return self._targets_inside(tool_name, tool_input)
        return False
