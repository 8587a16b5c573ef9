"""The host's hooks and permission prompts, answered through pi's own plugin hooks.

`HostBridge` is a pi plugin (registered in code by the runner): its `tool_call` gate asks the
host's PreToolUse callbacks and then `can_use_tool`; `tool_result` feeds PostToolUse; `input`
feeds UserPromptSubmit; `agent_end` Stop; `session_start` / `session_shutdown` SessionStart /
SessionEnd; `session_before_compact` PreCompact; `before_agent_start` carries the host's system
prompt. Other pi plugins keep their hooks: the bridge is one plugin among them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from pi_core import hookimpl
from pi_core.events import (
    AgentEndEvent,
    BeforeAgentStartEvent,
    BeforeAgentStartResult,
    InputEvent,
    InputHandled,
    InputTransform,
    SessionBeforeCompactEvent,
    SessionBeforeCompactResult,
    SessionShutdownEvent,
    SessionStartEvent,
    ToolCallEvent,
    ToolCallResult,
    ToolResultEvent,
)
from pi_core.messages import AssistantMessage, TextContent
from pi_plugin_claude.protocol.control import ControlChannel, ControlError
from pi_plugin_claude.protocol.permissions import PermissionPolicy

HOOK_EVENTS = (
    "PreToolUse",
    "PostToolUse",
    "UserPromptSubmit",
    "Stop",
    "SessionStart",
    "SessionEnd",
    "PreCompact",
    "Notification",
)
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
    denials: list[dict[str, Any]] = field(default_factory=list)
    prompt_blocked: bool = False
    interrupt_requested: bool = False
    resumed: bool = False


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


def input_as_dict(value: Any) -> dict[str, Any]:
    """A tool's input as the JSON object the host sees."""
    if isinstance(value, BaseModel):
        dumped = value.model_dump(mode="json", by_alias=True, exclude_none=True)
        return dumped if isinstance(dumped, dict) else {}
    return dict(value) if isinstance(value, dict) else {}


def apply_updated_input(event: ToolCallEvent, updated: dict[str, Any]) -> None:
    """Replace a pending tool call's arguments in place (what `tool_call` impls may do)."""
    current = event.input
    if isinstance(current, BaseModel):
        validated = type(current).model_validate(updated)
        for name in type(validated).model_fields:
            setattr(current, name, getattr(validated, name))
    elif isinstance(current, dict):
        current.clear()
        current.update(updated)


def text_of(content: list[Any]) -> str:
    """The text parts of a tool result, joined."""
    return "\n".join(b.text for b in content if isinstance(b, TextContent))


class HostBridge:
    """A pi plugin that forwards hook events and permission questions to the SDK host."""

    def __init__(
        self, state: BridgeState, control: ControlChannel, permissions: PermissionPolicy
    ) -> None:
        self.state = state
        self.control = control
        self.permissions = permissions
        self.__name__ = "pi-claude-host"

    # --- asking the host -------------------------------------------------------------------

    def base_input(self, event_name: str) -> dict[str, Any]:
        """The fields every hook input carries."""
        return {
            "session_id": self.state.session_id,
            "transcript_path": self.state.transcript_path,
            "cwd": self.state.cwd,
            "permission_mode": self.permissions.mode,
            "hook_event_name": event_name,
        }

    async def run_hooks(
        self,
        event_name: str,
        subject: str | None,
        fields: dict[str, Any],
        tool_use_id: str | None = None,
    ) -> list[dict[str, Any]]:
        """Fire the host's callbacks for one event, in registration order; return their outputs."""
        outputs: list[dict[str, Any]] = []
        for registration in self.state.hooks.get(event_name, []):
            if not registration.matches(subject):
                continue
            for callback_id in registration.callback_ids:
                payload = {
                    "subtype": "hook_callback",
                    "callback_id": callback_id,
                    "input": {**self.base_input(event_name), **fields},
                    "tool_use_id": tool_use_id,
                }
                try:
                    answer = await self.control.request(
                        payload, registration.timeout or DEFAULT_HOOK_TIMEOUT
                    )
                except (ControlError, TimeoutError):
                    answer = {}  # Claude treats a failed callback as an empty answer
                outputs.append(answer)
        return outputs

    # --- tools -----------------------------------------------------------------------------

    @hookimpl(trylast=True)
    async def tool_call(self, event: ToolCallEvent) -> ToolCallResult | None:
        """PreToolUse callbacks, then the permission policy (and `can_use_tool` when it asks)."""
        name = event.tool_name
        tool_input = input_as_dict(event.input)
        outputs = await self.run_hooks(
            "PreToolUse",
            name,
            {"tool_name": name, "tool_input": tool_input, "tool_use_id": event.tool_call_id},
            event.tool_call_id,
        )
        forced: str | None = None
        for output in outputs:
            specific = output.get("hookSpecificOutput") or {}
            decision = specific.get("permissionDecision") or {
                "approve": "allow",
                "block": "deny",
            }.get(str(output.get("decision")))
            reason = specific.get("permissionDecisionReason") or output.get("reason") or ""
            if isinstance(specific.get("updatedInput"), dict):
                apply_updated_input(event, specific["updatedInput"])
                tool_input = input_as_dict(event.input)
            if output.get("continue") is False:
                decision, reason = "deny", output.get("stopReason") or reason
            if decision == "deny":
                message = f"PreToolUse:{name} hook error: {reason or 'blocked by hook'}"
                return self._deny(event, tool_input, message)
            if decision in ("allow", "ask"):
                forced = decision
        verdict, message = self.permissions.decide(name, tool_input, forced)
        if verdict == "allow":
            return None
        if verdict == "deny":
            return self._deny(event, tool_input, message)
        return await self._ask_host(event, tool_input)

    async def _ask_host(self, event: ToolCallEvent, tool_input: dict[str, Any]) -> ToolCallResult:
        name = event.tool_name
        await self.run_hooks(
            "Notification",
            "permission_prompt",
            {
                "message": f"Claude needs your permission to use {name}",
                "notification_type": "permission_prompt",
            },
        )
        request = {
            "subtype": "can_use_tool",
            "tool_name": name,
            "display_name": name,
            "input": tool_input,
            "permission_suggestions": self.permissions.suggestions(name, tool_input),
            "tool_use_id": event.tool_call_id,
        }
        try:
            answer = await self.control.request(request)
        except (ControlError, TimeoutError) as error:
            return self._deny(event, tool_input, f"Tool permission request failed: {error}")
        if answer.get("behavior") == "allow":
            updated = answer.get("updatedInput")
            if isinstance(updated, dict):
                apply_updated_input(event, updated)
            self.permissions.apply_updates(answer.get("updatedPermissions") or [])
            return ToolCallResult(block=False)
        message = str(answer.get("message") or f"Permission to use {name} was denied.")
        if answer.get("interrupt"):
            self.state.interrupt_requested = True
        return self._deny(event, tool_input, message)

    def _deny(
        self, event: ToolCallEvent, tool_input: dict[str, Any], message: str
    ) -> ToolCallResult:
        self.state.denials.append(
            {
                "tool_name": event.tool_name,
                "tool_use_id": event.tool_call_id,
                "tool_input": tool_input,
            }
        )
        return ToolCallResult(block=True, reason=message)

    @hookimpl
    async def tool_result(self, event: ToolResultEvent) -> None:
        """PostToolUse callbacks with the tool's response."""
        text = text_of(event.content)
        response: Any = text
        if event.tool_name.lower() == "bash":
            response = {"stdout": text, "stderr": "", "interrupted": False, "isImage": False}
        await self.run_hooks(
            "PostToolUse",
            event.tool_name,
            {
                "tool_name": event.tool_name,
                "tool_input": input_as_dict(event.input),
                "tool_response": response,
                "tool_use_id": event.tool_call_id,
            },
            event.tool_call_id,
        )

    # --- prompts and the conversation ------------------------------------------------------

    @hookimpl
    async def input(self, event: InputEvent) -> InputHandled | InputTransform | None:
        """UserPromptSubmit callbacks: `decision: block` drops the prompt; context is added."""
        outputs = await self.run_hooks("UserPromptSubmit", None, {"prompt": event.text})
        extra: list[str] = []
        for output in outputs:
            if output.get("decision") == "block" or output.get("continue") is False:
                self.state.prompt_blocked = True
                return InputHandled()
            context = (output.get("hookSpecificOutput") or {}).get("additionalContext")
            if context:
                extra.append(str(context))
        if extra:
            return InputTransform(text="\n\n".join([event.text, *extra]), images=event.images)
        return None

    @hookimpl
    def before_agent_start(self, event: BeforeAgentStartEvent) -> BeforeAgentStartResult | None:
        """The host's system prompt replaces pi's; an appended one goes after it."""
        prompt = self.state.system_prompt or event.system_prompt
        if self.state.append_system_prompt:
            prompt = f"{prompt}\n\n{self.state.append_system_prompt}"
        if prompt == event.system_prompt:
            return None
        return BeforeAgentStartResult(system_prompt=prompt)

    @hookimpl
    async def agent_end(self, event: AgentEndEvent) -> None:
        """Stop callbacks, with the last assistant text."""
        last = ""
        for message in reversed(event.messages):
            if isinstance(message, AssistantMessage):
                last = text_of(message.content)
                break
        await self.run_hooks(
            "Stop", None, {"stop_hook_active": False, "last_assistant_message": last}
        )

    @hookimpl
    async def session_start(self, event: SessionStartEvent) -> None:
        """SessionStart callbacks (`startup`, or `resume` for a loaded conversation)."""
        source = "resume" if self.state.resumed or event.reason in ("resume", "fork") else "startup"
        await self.run_hooks("SessionStart", source, {"source": source})

    @hookimpl
    async def session_shutdown(self, event: SessionShutdownEvent) -> None:
        """SessionEnd callbacks; stdin EOF is Claude's reason `other`."""
        await self.run_hooks("SessionEnd", "other", {"reason": "other"})

    @hookimpl
    async def session_before_compact(
        self, event: SessionBeforeCompactEvent
    ) -> SessionBeforeCompactResult | None:
        """PreCompact callbacks; `decision: block` cancels the compaction."""
        trigger = "manual" if event.custom_instructions is not None else "auto"
        outputs = await self.run_hooks(
            "PreCompact",
            trigger,
            {"trigger": trigger, "custom_instructions": event.custom_instructions},
        )
        if any(o.get("decision") == "block" or o.get("continue") is False for o in outputs):
            return SessionBeforeCompactResult(cancel=True)
        return None
