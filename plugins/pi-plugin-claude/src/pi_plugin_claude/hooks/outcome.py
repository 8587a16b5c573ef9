"""What a set of hook replies means for one event, by Claude Code's exit-code and JSON rules.

Exit 0: stdout is a JSON object (its fields act) or plain text (added to the model's context for
UserPromptSubmit and SessionStart, the summary's instructions for PreCompact, else only logged).
Exit 2: a blocking error whose stderr goes to the model (PreToolUse, PostToolUse, Stop,
SubagentStop) or the user (UserPromptSubmit, PreCompact). Any other exit: a non-blocking error
shown to the user.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from pi_plugin_claude.hooks.runner import HookReply

PermissionDecision = Literal["allow", "deny", "ask"]

BLOCKING_EVENTS = frozenset(
    {"PreToolUse", "PostToolUse", "PostToolUseFailure", "UserPromptSubmit", "Stop",
     "SubagentStop", "PreCompact"}
)  # fmt: skip
"""Events on which exit code 2 (or `decision: "block"`) has an effect."""

PLAIN_STDOUT_TO_MODEL = frozenset({"UserPromptSubmit", "SessionStart"})


@dataclass
class HookOutcome:
    """The combined effect of every hook that ran for one event."""

    event: str
    blocked: bool = False
    reason: str = ""
    """Why it was blocked, in the words the model (or user) reads."""
    permission_decision: PermissionDecision | None = None
    permission_reason: str = ""
    updated_input: dict[str, Any] | None = None
    additional_context: list[str] = field(default_factory=list)
    user_messages: list[str] = field(default_factory=list)
    """Errors and `systemMessage`s for the user (not the model)."""
    stop: bool = False
    """`continue: false`: the agent stops after this event."""
    stop_reason: str = ""
    compact_instructions: list[str] = field(default_factory=list)
    """PreCompact's plain stdout: instructions for the summary, as Claude Code takes them."""
    replies: list[HookReply] = field(default_factory=list)


def _prefix(event: str, tool_name: str | None) -> str:
    return f"{event}:{tool_name}" if tool_name else event


_RANK: dict[str, int] = {"deny": 3, "ask": 2, "allow": 1}


def _decide(outcome: HookOutcome, decision: str, reason: str) -> None:
    current = outcome.permission_decision
    if decision in _RANK and (current is None or _RANK[decision] > _RANK[current]):
        outcome.permission_decision = decision  # type: ignore[assignment]
        outcome.permission_reason = reason


def _block(outcome: HookOutcome, reason: str) -> None:
    outcome.blocked = True
    outcome.reason = f"{outcome.reason}\n{reason}" if outcome.reason else reason


def _apply_json(outcome: HookOutcome, reply: HookReply, prefix: str) -> None:
    output = reply.output or {}
    event = outcome.event
    if output.get("continue") is False:
        outcome.stop = True
        outcome.stop_reason = str(output.get("stopReason") or "")
    if isinstance(output.get("systemMessage"), str):
        outcome.user_messages.append(output["systemMessage"])
    specific = output.get("hookSpecificOutput")
    specific = specific if isinstance(specific, dict) else {}
    reason = str(output.get("reason") or "")
    decision = output.get("decision")
    if event == "PreToolUse":
        wanted = specific.get("permissionDecision")
        wanted_reason = str(specific.get("permissionDecisionReason") or reason)
        if decision == "approve" and wanted is None:
            wanted = "allow"
        elif decision == "block" and wanted is None:
            wanted = "deny"
        if isinstance(wanted, str):
            _decide(outcome, wanted, wanted_reason)
            if wanted == "deny":
                _block(outcome, f"{prefix} hook error: {wanted_reason or 'blocked by hook'}")
        if isinstance(specific.get("updatedInput"), dict):
            outcome.updated_input = dict(specific["updatedInput"])
    elif decision == "block" and event in BLOCKING_EVENTS:
        _block(outcome, reason or f"{prefix} hook blocked")
    context = specific.get("additionalContext")
    if isinstance(context, str) and context:
        outcome.additional_context.append(f"{prefix} hook additional context: {context}")


def combine(event: str, replies: list[HookReply], tool_name: str | None = None) -> HookOutcome:
    """Fold every reply for `event` into one outcome (deny beats ask beats allow)."""
    outcome = HookOutcome(event, replies=list(replies))
    prefix = _prefix(event, tool_name)
    for reply in replies:
        if reply.exit_code == 0:
            if reply.output is not None:
                _apply_json(outcome, reply, prefix)
            elif reply.stdout.strip() and event in PLAIN_STDOUT_TO_MODEL:
                outcome.additional_context.append(f"{event} hook success: {reply.stdout.strip()}")
            elif reply.stdout.strip() and event == "PreCompact":
                outcome.compact_instructions.append(reply.stdout.strip())
        elif reply.exit_code == 2 and event in BLOCKING_EVENTS:
            stderr = reply.stderr.strip() or "No stderr output"
            if event == "PreToolUse":
                _decide(outcome, "deny", stderr)
                _block(outcome, f"{prefix} hook error: [{reply.label}]: {stderr}")
            elif event in ("PostToolUse", "PostToolUseFailure"):
                outcome.additional_context.append(f"{prefix} hook error: [{reply.label}]: {stderr}")
            else:
                _block(outcome, stderr)
        else:
            stderr = reply.stderr.strip() or f"exit code {reply.exit_code}"
            outcome.user_messages.append(f"{prefix} hook error: [{reply.label}]: {stderr}")
    return outcome
