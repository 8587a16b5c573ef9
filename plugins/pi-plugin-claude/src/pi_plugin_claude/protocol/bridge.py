"""The host's hooks and permission prompts, answered through pi's own plugin hooks.

`HostBridge` is a pi plugin (registered in code by the runner). Its `tool_call` gate fires
PreToolUse (settings command hooks and the host's callbacks, through `ClaudeHooks`) and then the
permission gate (Claude's rules and modes; "ask" becomes a `can_use_tool` request); `tool_result`
fires PostToolUse; `input` UserPromptSubmit; `agent_end` Stop; `session_start` /
`session_shutdown` SessionStart / SessionEnd; `session_before_compact` PreCompact;
`before_agent_start` carries the host's system prompt. Other pi plugins keep their hooks.
"""

from __future__ import annotations

import asyncio
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
    ToolResultPatch,
)
from pi_core.messages import AssistantMessage, TextContent
from pi_plugin_claude.hooks import ClaudeHooks, HookReply
from pi_plugin_claude.permissions import (
    AskRequest,
    Decision,
    PermissionAllow,
    PermissionAnswer,
    PermissionDeny,
    PermissionGate,
)
from pi_plugin_claude.protocol.control import ControlChannel, ControlError

DEFAULT_HOOK_TIMEOUT = 60.0
PI_TO_CLAUDE_TOOLS = {
    "bash": "Bash",
    "read": "Read",
    "edit": "Edit",
    "write": "Write",
    "grep": "Grep",
    "find": "Glob",
    "ls": "LS",
}
"""pi-plugin-tools' names as Claude's rules and modes know them (`Bash(npm test:*)` covers pi's
`bash`); tools that already carry Claude's names pass through unchanged."""


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
    """A pi plugin that runs Claude's hooks and permission gate inside pi's hooks."""

    def __init__(
        self,
        state: BridgeState,
        control: ControlChannel,
        gate: PermissionGate,
        hooks: ClaudeHooks,
    ) -> None:
        self.state = state
        self.control = control
        self.gate = gate
        self.hooks = hooks
        self.abort_turn: Any = None  # set by the runner: a coroutine function ending the turn
        self.abort_task: asyncio.Future[Any] | None = None
        self._asking: dict[str, str] = {}  # tool_use_id → the name the model called
        self.__name__ = "pi-claude-host"

    async def ask_host(self, request: AskRequest) -> PermissionAnswer:
        """The gate's prompt: a Notification, then `can_use_tool` to the host."""
        name = self._asking.get(request.tool_use_id, request.tool_name)
        await self.hooks.fire(
            "Notification",
            {
                "message": f"Claude needs your permission to use {name}",
                "notification_type": "permission_prompt",
            },
        )
        answer = await self.control.request(
            {
                "subtype": "can_use_tool",
                "tool_name": name,
                "display_name": name,
                "input": request.input,
                "description": request.decision.message,
                "decision_reason_type": request.decision.reason_type,
                "permission_suggestions": suggestions(name, request.input),
                "tool_use_id": request.tool_use_id,
            }
        )
        if answer.get("behavior") == "allow":
            updated = answer.get("updatedInput")
            permissions = answer.get("updatedPermissions")
            return PermissionAllow(
                updated_input=updated if isinstance(updated, dict) else None,
                updated_permissions=[p for p in permissions or [] if isinstance(p, dict)],
            )
        message = str(answer.get("message") or f"Permission to use {name} was denied.")
        return PermissionDeny(message=message, interrupt=bool(answer.get("interrupt")))

    # --- tools -----------------------------------------------------------------------------

    @hookimpl(trylast=True)
    async def tool_call(self, event: ToolCallEvent) -> ToolCallResult | None:
        """PreToolUse hooks, then the permission gate (which may ask the host)."""
        name = event.tool_name
        tool_input = input_as_dict(event.input)
        fields = {"tool_name": name, "tool_input": tool_input, "tool_use_id": event.tool_call_id}
        pre = await self.hooks.fire("PreToolUse", fields)
        if pre.updated_input is not None:
            apply_updated_input(event, pre.updated_input)
            tool_input = input_as_dict(event.input)
        if pre.blocked or pre.stop:
            return self._deny(event, tool_input, pre.reason or pre.stop_reason or "blocked by hook")
        forced = None
        if pre.permission_decision in ("allow", "ask"):
            forced = Decision(pre.permission_decision, "hook", pre.permission_reason)
        self._asking[event.tool_call_id] = name
        try:
            outcome = await self.gate.check(
                PI_TO_CLAUDE_TOOLS.get(name, name), tool_input, event.tool_call_id, forced
            )
        finally:
            self._asking.pop(event.tool_call_id, None)
        if outcome.allowed:
            if outcome.updated_input is not None:
                apply_updated_input(event, outcome.updated_input)
            return None
        if outcome.interrupt:
            self.state.interrupt_requested = True
            if self.abort_turn is not None:
                self.abort_task = asyncio.ensure_future(self.abort_turn())
        return self._deny(event, tool_input, outcome.message)

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
    async def tool_result(self, event: ToolResultEvent) -> ToolResultPatch | None:
        """PostToolUse hooks with the tool's response; their context joins the result."""
        text = text_of(event.content)
        response: Any = text
        if event.tool_name.lower() == "bash":
            response = {"stdout": text, "stderr": "", "interrupted": False, "isImage": False}
        post = await self.hooks.fire(
            "PostToolUse",
            {
                "tool_name": event.tool_name,
                "tool_input": input_as_dict(event.input),
                "tool_response": response,
                "tool_use_id": event.tool_call_id,
            },
        )
        notes = post.additional_context + ([post.reason] if post.blocked else [])
        if not notes:
            return None
        return ToolResultPatch(content=[*event.content, TextContent(text="\n".join(notes))])

    # --- prompts and the conversation ------------------------------------------------------

    @hookimpl
    async def input(self, event: InputEvent) -> InputHandled | InputTransform | None:
        """UserPromptSubmit hooks: a block drops the prompt; their context is added to it."""
        outcome = await self.hooks.fire("UserPromptSubmit", {"prompt": event.text})
        if outcome.blocked or outcome.stop:
            self.state.prompt_blocked = True
            return InputHandled()
        if outcome.additional_context:
            text = "\n\n".join([event.text, *outcome.additional_context])
            return InputTransform(text=text, images=event.images)
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
        """Stop hooks, with the last assistant text."""
        last = ""
        for message in reversed(event.messages):
            if isinstance(message, AssistantMessage):
                last = text_of(message.content)
                break
        await self.hooks.fire("Stop", {"stop_hook_active": False, "last_assistant_message": last})

    @hookimpl
    async def session_start(self, event: SessionStartEvent) -> None:
        """SessionStart hooks (`startup`, or `resume` for a loaded conversation)."""
        source = "resume" if self.state.resumed or event.reason in ("resume", "fork") else "startup"
        await self.hooks.fire("SessionStart", {"source": source})

    @hookimpl
    async def session_shutdown(self, event: SessionShutdownEvent) -> None:
        """SessionEnd hooks; stdin EOF is Claude's reason `other`."""
        await self.hooks.fire("SessionEnd", {"reason": "other"})

    @hookimpl
    async def session_before_compact(
        self, event: SessionBeforeCompactEvent
    ) -> SessionBeforeCompactResult | None:
        """PreCompact hooks; a block cancels the compaction."""
        trigger = "manual" if event.custom_instructions is not None else "auto"
        outcome = await self.hooks.fire(
            "PreCompact", {"trigger": trigger, "custom_instructions": event.custom_instructions}
        )
        if outcome.blocked or outcome.stop:
            return SessionBeforeCompactResult(cancel=True)
        return None


def suggestions(tool: str, tool_input: dict[str, Any]) -> list[dict[str, Any]]:
    """The `permission_suggestions` offered with a `can_use_tool` request."""
    command = tool_input.get("command")
    rule: dict[str, Any] = {"toolName": PI_TO_CLAUDE_TOOLS.get(tool, tool)}
    if isinstance(command, str):
        rule["ruleContent"] = command
    return [
        {"type": "addRules", "rules": [rule], "behavior": "allow", "destination": "session"},
        {"type": "setMode", "mode": "acceptEdits", "destination": "session"},
    ]
