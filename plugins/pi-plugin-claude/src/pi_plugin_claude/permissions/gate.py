"""The permission gate a tool call passes: the policy's decision, and a prompt when it says ask.

`AskCallback` is the one thing a host supplies: pi-claude answers it with a `can_use_tool`
control request, plain pi with `ctx.ui.confirm`. Without one, "ask" becomes a denial, as in
Claude Code's `-p` mode without `--permission-prompt-tool`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from pi_plugin_claude.permissions.engine import Decision, PermissionPolicy
from pi_plugin_claude.permissions.modes import parse_mode
from pi_plugin_claude.permissions.rules import parse_rule


@dataclass(frozen=True)
class AskRequest:
    """What the host is asked about: the call, and why the rules did not answer it."""

    tool_name: str
    input: dict[str, Any]
    tool_use_id: str
    decision: Decision


@dataclass(frozen=True)
class PermissionAllow:
    """The host allows the call, maybe with a changed input and new session rules or mode."""

    updated_input: dict[str, Any] | None = None
    updated_permissions: list[dict[str, Any]] = field(default_factory=list)
    behavior: Literal["allow"] = "allow"


@dataclass(frozen=True)
class PermissionDeny:
    """The host denies the call; `message` reaches the model; `interrupt` ends the turn."""

    message: str = "Permission denied"
    interrupt: bool = False
    behavior: Literal["deny"] = "deny"


PermissionAnswer = PermissionAllow | PermissionDeny


class AskCallback(Protocol):
    """Ask the user (or host) whether a call may run."""

    async def __call__(self, request: AskRequest) -> PermissionAnswer:
        """Return allow or deny for the call in `request`."""
        ...


@dataclass(frozen=True)
class GateOutcome:
    """The gate's verdict: run (maybe with a new input) or refuse with the model-facing message."""

    allowed: bool
    message: str = ""
    updated_input: dict[str, Any] | None = None
    interrupt: bool = False


@dataclass(frozen=True)
class PermissionDenial:
    """A refused call, as Claude's `result.permission_denials` lists it."""

    tool_name: str
    tool_use_id: str
    tool_input: dict[str, Any]


def no_prompt_message(tool_name: str) -> str:
    """Claude's words when a call needs approval and nobody can be asked."""
    return f"Claude requested permissions to use {tool_name}, but you haven't granted it yet."


class PermissionGate:
    """Decides calls with a policy, asks through the callback, and records the denials."""

    def __init__(self, policy: PermissionPolicy, ask: AskCallback | None = None) -> None:
        self.policy = policy
        self.ask = ask
        self.denials: list[PermissionDenial] = []

    async def check(
        self,
        tool_name: str,
        tool_input: dict[str, Any],
        tool_use_id: str,
        forced: Decision | None = None,
    ) -> GateOutcome:
        """Run the policy (or a hook's `forced` decision) and the prompt; record a denial."""
        decision = forced or self.policy.decide(tool_name, tool_input)
        outcome = await self._resolve(decision, tool_name, tool_input, tool_use_id)
        if not outcome.allowed:
            self.denials.append(PermissionDenial(tool_name, tool_use_id, dict(tool_input)))
        elif tool_name == "ExitPlanMode" and self.policy.mode == "plan":
            self.policy.mode = "default"  # an approved plan ends plan mode
        return outcome

    async def _resolve(
        self, decision: Decision, tool_name: str, tool_input: dict[str, Any], tool_use_id: str
    ) -> GateOutcome:
        if decision.behavior == "allow":
            return GateOutcome(True)
        if decision.behavior == "deny":
            return GateOutcome(False, decision.message)
        if self.ask is None:
            return GateOutcome(False, decision.unasked_message or no_prompt_message(tool_name))
        try:
            answer = await self.ask(AskRequest(tool_name, dict(tool_input), tool_use_id, decision))
        except Exception as error:  # a failed prompt denies, as Claude's does
            return GateOutcome(False, f"Tool permission request failed: {error}")
        if isinstance(answer, PermissionDeny):
            return GateOutcome(False, answer.message, interrupt=answer.interrupt)
        self.apply_updates(answer.updated_permissions)
        return GateOutcome(True, updated_input=answer.updated_input)

    def apply_updates(self, updates: list[dict[str, Any]]) -> None:
        """Apply PermissionUpdate dicts (addRules, replaceRules, removeRules, setMode, …)."""
        for update in updates:
            kind = update.get("type")
            if kind == "setMode" and isinstance(update.get("mode"), str):
                mode = parse_mode(update["mode"])
                if not (mode == "bypassPermissions" and self.policy.bypass_disabled):
                    self.policy.mode = mode
            elif kind in ("addDirectories", "removeDirectories"):
                dirs = [d for d in update.get("directories") or [] if isinstance(d, str)]
                current = self.policy.additional_directories
                if kind == "addDirectories":
                    current.extend(d for d in dirs if d not in current)
                else:
                    self.policy.additional_directories = [d for d in current if d not in dirs]
            elif (
                kind in ("addRules", "replaceRules", "removeRules") and not self.policy.rules_locked
            ):
                self._update_rules(kind, update)

    def _update_rules(self, kind: str, update: dict[str, Any]) -> None:
        behavior = update.get("behavior", "allow")
        if behavior not in ("allow", "ask", "deny"):
            return
        rules = [
            parse_rule(
                r["toolName"]
                if not r.get("ruleContent")
                else f"{r['toolName']}({r['ruleContent']})"
            )
            for r in update.get("rules") or []
            if isinstance(r, dict) and isinstance(r.get("toolName"), str)
        ]
        current: list[Any] = getattr(self.policy, behavior)
        if kind == "replaceRules":
            current[:] = rules
        elif kind == "addRules":
            current.extend(rules)
        else:
            names = {str(rule) for rule in rules}
            current[:] = [rule for rule in current if str(rule) not in names]


def _rule_text(rule: dict[str, Any]) -> str:
    """`{toolName, ruleContent}` as rule text."""
    content = rule.get("ruleContent")
    return f"{rule['toolName']}({content})" if content else str(rule["toolName"])
