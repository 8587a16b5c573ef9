"""The host's side of a pi-claude session: its hook callbacks, its permission prompts and its
system prompt, plugged into the Claude profile's `ClaudeCompat`.

`ClaudeCompat` (the Claude profile's plugin) maps Claude's hooks and permission gate onto pi's
hooks (`tool_call`, `tool_result`, `input`, `agent_end`, `session_start`, ...). pi-claude adds
the host to it: `SdkHookSource` makes each callback the host registered in `initialize` a
source of hook replies (a `hook_callback` request), and `HostBridge.ask_host` answers the gate's
"ask" with a `can_use_tool` request. `HostBridge` is also a small pi plugin of its own: the
host's system prompt and CLAUDE.md memory (`before_agent_start`) and `.claude/commands`
(`resources_discover`). Other pi plugins keep their hooks.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from pi_core import hookimpl
from pi_core.events import (
    BeforeAgentStartEvent,
    BeforeAgentStartResult,
    ResourcesDiscoverEvent,
    ResourcesDiscoverResult,
)
from pi_plugin_claude.bridge import ClaudeCompat
from pi_plugin_claude.context import claude_memory_files, command_dirs, memory_prompt
from pi_plugin_claude.hooks import HookReply
from pi_plugin_claude.permissions import (
    AskRequest,
    PermissionAllow,
    PermissionAnswer,
    PermissionDeny,
)
from pi_plugin_claude.protocol.control import ControlChannel, ControlError

DEFAULT_HOOK_TIMEOUT = 60.0


@dataclass
class HookRegistration:
    """One matcher of the host's `initialize.hooks` and the callback ids it fires."""

    matcher: str | None
    callback_ids: list[str]
    timeout: float | None = None

    def matches(self, subject: str | None) -> bool:
        """Claude's matcher rule: empty or `*` matches all, else a regex on the subject."""
        if not self.matcher or self.matcher == "*" or subject is None:
            return True
        try:
            return re.fullmatch(self.matcher, subject) is not None
        except re.error:
            return self.matcher == subject


@dataclass
class BridgeState:
    """What the bridge knows about the conversation it serves (the runner keeps it current)."""

    cwd: str
    session_id: str = ""
    transcript_path: str = ""
    system_prompt: str | None = None
    append_system_prompt: str | None = None
    hooks: dict[str, list[HookRegistration]] = field(default_factory=dict)
    interrupt_requested: bool = False


def parse_hook_registrations(raw: Any) -> dict[str, list[HookRegistration]]:
    """Read `initialize.hooks` ({Event: [{matcher, hookCallbackIds, timeout}]})."""
    hooks: dict[str, list[HookRegistration]] = {}
    if not isinstance(raw, dict):
        return hooks
    for event, matchers in raw.items():
        for entry in matchers or []:
            if not isinstance(entry, dict):
                continue
            ids = [str(i) for i in entry.get("hookCallbackIds") or []]
            timeout = entry.get("timeout")
            hooks.setdefault(str(event), []).append(
                HookRegistration(
                    entry.get("matcher"), ids, float(timeout) if timeout is not None else None
                )
            )
    return hooks


class SdkHookSource:
    """The host's hook callbacks as a `ClaudeHooks` source: each is a `hook_callback` request."""

    def __init__(self, state: BridgeState, control: ControlChannel) -> None:
        self.state = state
        self.control = control

    async def __call__(
        self, event: str, payload: dict[str, Any], match_value: str | None
    ) -> list[HookReply]:
        """Ask every matching callback, in registration order; a failed one answers `{}`."""
        replies: list[HookReply] = []
        for registration in self.state.hooks.get(event, []):
            if not registration.matches(match_value):
                continue
            for callback_id in registration.callback_ids:
                request = {
                    "subtype": "hook_callback",
                    "callback_id": callback_id,
                    "input": payload,
                    "tool_use_id": payload.get("tool_use_id"),
                }
                try:
                    answer = await self.control.request(
                        request, registration.timeout or DEFAULT_HOOK_TIMEOUT
                    )
                except (ControlError, TimeoutError):
                    answer = {}  # Claude treats a failed callback as an empty answer
                replies.append(
                    HookReply(label=f"callback {callback_id}", exit_code=0, output=answer)
                )
        return replies


class HostBridge:
    """The host's permission prompt, system prompt and Claude's context files, as a pi plugin."""

    def __init__(self, state: BridgeState, control: ControlChannel, compat: ClaudeCompat) -> None:
        self.state = state
        self.control = control
        self.compat = compat
        self.__name__ = "pi-claude-host"

    async def ask_host(self, request: AskRequest) -> PermissionAnswer:
        """The gate's prompt: a Notification, then `can_use_tool` to the host."""
        name = request.tool_name
        await self.compat.notify(f"Claude needs your permission to use {name}", "permission_prompt")
        asked: dict[str, Any] = {
            "subtype": "can_use_tool",
            "tool_name": name,
            "display_name": name,
            "input": request.input,
            "description": request.decision.message,
            "decision_reason_type": request.decision.reason_type,
            "permission_suggestions": suggestions(name, request.input),
            "tool_use_id": request.tool_use_id,
        }
        if name == "ExitPlanMode":
            asked["requires_user_interaction"] = True  # the plan itself is in `input.plan`
        try:
            answer = await self.control.request(asked)
        except ControlError as error:
            return PermissionDeny(f"Tool permission request failed: {error}")
        if answer.get("behavior") == "allow":
            updated = answer.get("updatedInput")
            permissions = answer.get("updatedPermissions")
            return PermissionAllow(
                updated_input=updated if isinstance(updated, dict) else None,
                updated_permissions=[p for p in permissions or [] if isinstance(p, dict)],
            )
        message = str(answer.get("message") or f"Permission to use {name} was denied.")
        return PermissionDeny(message=message, interrupt=bool(answer.get("interrupt")))

    @hookimpl(tryfirst=True)
    def before_agent_start(self, event: BeforeAgentStartEvent) -> BeforeAgentStartResult | None:
        """The host's system prompt replaces pi's (an appended one follows); CLAUDE.md joins it."""
        prompt = self.state.system_prompt or event.system_prompt
        memory = memory_prompt(claude_memory_files(self.state.cwd))
        if memory:
            prompt = f"{prompt}\n\n{memory}"
        if self.state.append_system_prompt:
            prompt = f"{prompt}\n\n{self.state.append_system_prompt}"
        if prompt == event.system_prompt:
            return None
        return BeforeAgentStartResult(system_prompt=prompt)

    @hookimpl
    def resources_discover(self, event: ResourcesDiscoverEvent) -> ResourcesDiscoverResult | None:
        """`.claude/commands/*.md` (user and project) as prompt templates."""
        folders = command_dirs(event.cwd)
        return ResourcesDiscoverResult(prompt_paths=folders) if folders else None


def suggestions(tool: str, tool_input: dict[str, Any]) -> list[dict[str, Any]]:
    """The `permission_suggestions` offered with a `can_use_tool` request."""
    command = tool_input.get("command")
    rule: dict[str, Any] = {"toolName": tool}
    if isinstance(command, str):
        rule["ruleContent"] = command
    return [
        {"type": "addRules", "rules": [rule], "behavior": "allow", "destination": "session"},
        {"type": "setMode", "mode": "acceptEdits", "destination": "session"},
    ]
