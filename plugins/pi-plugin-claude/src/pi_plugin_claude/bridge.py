"""Claude's hooks and permissions mapped onto pi's hooks, as one plugin object.

PreToolUse and the permission gate answer `tool_call`; PostToolUse(Failure) patches
`tool_result`; UserPromptSubmit runs on `input`; hook context reaches the model through
`before_agent_start`; Stop runs on `agent_end`; SessionStart / SessionEnd on
`session_start` / `session_shutdown`; PreCompact on `session_before_compact`; SubagentStop on
a Task call's `tool_result`. Notification is fired by `ClaudeCompat.notify`.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from pi_core import hookimpl
from pi_core.events import (
    AgentEndEvent,
    BeforeAgentStartEvent,
    BeforeAgentStartResult,
    InjectedMessage,
    InputEvent,
    InputHandled,
    SessionBeforeCompactEvent,
    SessionBeforeCompactResult,
    SessionCompactEvent,
    SessionShutdownEvent,
    SessionStartEvent,
    ToolCallEvent,
    ToolCallResult,
    ToolResultEvent,
    ToolResultPatch,
)
from pi_core.messages import AssistantMessage, TextContent
from pi_plugin_claude.permissions import Decision, PermissionDenial
from pi_plugin_claude.responses import claude_tool_response
from pi_plugin_claude.runtime import ClaudeRuntime
from pi_plugin_claude.settings_check import closed_reason

if TYPE_CHECKING:
    from pi_core import ExtensionContext
    from pi_plugin_claude.hooks import HookOutcome

CONTEXT_MESSAGE_TYPE = "claude-hook-context"
SESSION_END_REASONS = {"quit": "other", "new": "clear", "resume": "other", "fork": "other"}


PI_TOOL_NAMES = {
    "bash": "Bash",
    "read": "Read",
    "write": "Write",
    "edit": "Edit",
    "grep": "Grep",
    "find": "Glob",
    "ls": "LS",
}
"""pi's built-in tools and the Claude tool each one is judged as (rules, hooks, modes)."""

_PATH_TOOLS = ("read", "write", "edit")


def claude_view(tool_name: str, value: Any) -> tuple[str, dict[str, Any]]:
    """The name and input Claude's rules and hooks see: pi's `read {path}` is `Read {file_path}`."""
    data = tool_input_dict(value)
    if tool_name in _PATH_TOOLS and "path" in data:
        data["file_path"] = data.pop("path")
    return PI_TOOL_NAMES.get(tool_name, tool_name), data


def pi_input(tool_name: str, updated: dict[str, Any]) -> dict[str, Any]:
    """An updated input in the tool's own field names (`file_path` back to pi's `path`)."""
    if tool_name in _PATH_TOOLS and "file_path" in updated:
        updated = {("path" if k == "file_path" else k): v for k, v in updated.items()}
    return updated


def tool_input_dict(value: Any) -> dict[str, Any]:
    """A tool call's input as Claude's JSON object."""
    as_claude = getattr(value, "as_claude", None)
    if callable(as_claude):
        return dict(as_claude())
    if isinstance(value, BaseModel):
        return value.model_dump(by_alias=True, exclude_none=True)
    return dict(value) if isinstance(value, dict) else {}


def apply_updated_input(params: Any, updated: dict[str, Any]) -> None:
    """Replace the call's arguments in place (the tool runs with the same object)."""
    if isinstance(params, BaseModel):
        fresh = type(params).model_validate(updated)
        for name in type(params).model_fields:
            setattr(params, name, getattr(fresh, name))
    elif isinstance(params, dict):
        params.clear()
        params.update(updated)


def _text(content: list[Any]) -> str:
    return "\n".join(b.text for b in content if isinstance(b, TextContent))


class ClaudeCompat:
    """The pi plugin that gives a session Claude Code's hooks and permission rules."""

    __name__ = "claude-compat"

    def __init__(self, runtime: ClaudeRuntime) -> None:
        self.runtime = runtime
        self.pending_context: list[str] = []
        self.stop_hook_active = False
        self.stop_blocks = 0

    def _tell_user(self, ctx: ExtensionContext | None, messages: list[str]) -> None:
        for message in messages:
            if self.runtime.on_user_message is not None:
                self.runtime.on_user_message(message)
            elif ctx is not None and ctx.has_ui:
                ctx.ui.notify(message, "warning")
            else:  # print mode: the user reads stderr
                print(message, file=sys.stderr)

    def _stop(self, ctx: ExtensionContext, outcome: HookOutcome) -> None:
        if outcome.stop:
            ctx.abort()

    @hookimpl
    async def tool_call(self, event: ToolCallEvent, ctx: ExtensionContext) -> ToolCallResult | None:
        """PreToolUse hooks, then the permission gate; either may block or rewrite the input."""
        call_id = event.tool_call_id
        name, tool_input = claude_view(event.tool_name, event.input)
        if self.runtime.settings.unusable:  # a file's deny rules are unknown: fail closed
            self.runtime.gate.denials.append(_denial(name, call_id, tool_input))
            return ToolCallResult(block=True, reason=closed_reason(self.runtime.settings.unusable))
        forced: Decision | None = None
        hooks = self.runtime.hooks
        if hooks.has("PreToolUse"):
            outcome = await hooks.fire(
                "PreToolUse", {"tool_name": name, "tool_input": tool_input, "tool_use_id": call_id}
            )
            self._tell_user(ctx, outcome.user_messages)
            if outcome.blocked:
                self.runtime.gate.denials.append(_denial(name, call_id, tool_input))
                return ToolCallResult(block=True, reason=outcome.reason)
            if outcome.updated_input is not None:
                apply_updated_input(event.input, pi_input(event.tool_name, outcome.updated_input))
                name, tool_input = claude_view(event.tool_name, event.input)
            if outcome.permission_decision == "allow":
                forced = Decision("allow", "hook")
            elif outcome.permission_decision == "ask":
                forced = Decision("ask", "hook", outcome.permission_reason)
            if outcome.stop:
                self._stop(ctx, outcome)
        verdict = await self.runtime.gate.check(name, tool_input, call_id, forced)
        if not verdict.allowed:
            if verdict.interrupt:
                ctx.abort()
            return ToolCallResult(block=True, reason=verdict.message)
        if verdict.updated_input is not None:
            apply_updated_input(event.input, pi_input(event.tool_name, verdict.updated_input))
        return None

    @hookimpl
    async def tool_result(
        self, event: ToolResultEvent, ctx: ExtensionContext
    ) -> ToolResultPatch | None:
        """PostToolUse (or PostToolUseFailure): context and exit-2 feedback join the result.

        A Task result first fires SubagentStop; its block reason joins the result too (the
        subagent has ended by then, so it cannot go on as in Claude Code).
        """
        extra: list[str] = []
        name, tool_input = claude_view(event.tool_name, event.input)
        if name == "Task" and self.runtime.hooks.has("SubagentStop"):
            stopped = await self.runtime.hooks.fire(
                "SubagentStop",
                {"stop_hook_active": False, "agent_type": tool_input.get("subagent_type") or ""},
            )
            self._tell_user(ctx, stopped.user_messages)
            if stopped.blocked:
                extra.append(f"SubagentStop hook feedback:\n{stopped.reason}")
        hook = "PostToolUseFailure" if event.is_error else "PostToolUse"
        if self.runtime.hooks.has(hook):
            fields: dict[str, Any] = {
                "tool_name": name,
                "tool_input": tool_input,
                "tool_use_id": event.tool_call_id,
            }
            if event.is_error:
                fields["error"] = _text(event.content)
            else:
                fields["tool_response"] = claude_tool_response(
                    name, tool_input, _text(event.content), event.details
                )
            outcome = await self.runtime.hooks.fire(hook, fields)
            self._tell_user(ctx, outcome.user_messages)
            extra += outcome.additional_context
            if outcome.blocked:
                extra.append(outcome.reason)
            if outcome.stop:
                self._stop(ctx, outcome)
        if not extra:
            return None
        return ToolResultPatch(
            content=[*event.content, *(TextContent(text=text) for text in extra)]
        )

    @hookimpl
    async def input(self, event: InputEvent, ctx: ExtensionContext) -> InputHandled | None:
        """UserPromptSubmit: exit 2 or `decision: block` erases the prompt; context is kept."""
        if event.source != "extension":
            self.stop_hook_active, self.stop_blocks = False, 0
        if not self.runtime.hooks.has("UserPromptSubmit"):
            return None
        outcome = await self.runtime.hooks.fire("UserPromptSubmit", {"prompt": event.text})
        self._tell_user(ctx, outcome.user_messages)
        if outcome.blocked or outcome.stop:
            reason = outcome.reason or outcome.stop_reason
            self._tell_user(ctx, [f"UserPromptSubmit operation blocked by hook:\n{reason}"])
            return InputHandled()
        self.pending_context += outcome.additional_context
        return None

    @hookimpl
    def before_agent_start(self, event: BeforeAgentStartEvent) -> BeforeAgentStartResult | None:
        """Hand the model the context SessionStart and UserPromptSubmit hooks added."""
        if not self.pending_context:
            return None
        text, self.pending_context = "\n".join(self.pending_context), []
        message = InjectedMessage(custom_type=CONTEXT_MESSAGE_TYPE, content=text, display=False)
        return BeforeAgentStartResult(message=message)

    @hookimpl
    async def agent_end(self, event: AgentEndEvent, ctx: ExtensionContext) -> None:
        """Stop: a block sends its reason back as the user, and the agent goes on."""
        if not self.runtime.hooks.has("Stop"):
            return
        last = next((m for m in reversed(event.messages) if isinstance(m, AssistantMessage)), None)
        outcome = await self.runtime.hooks.fire(
            "Stop",
            {
                "stop_hook_active": self.stop_hook_active,
                "last_assistant_message": _text(last.content) if last is not None else "",
            },
        )
        self._tell_user(ctx, outcome.user_messages)
        if not outcome.blocked or outcome.stop:
            return
        if self.stop_blocks >= self.runtime.stop_hook_block_cap:
            return
        self.stop_blocks += 1
        self.stop_hook_active = True
        ctx.send_user_message(f"Stop hook feedback:\n{outcome.reason}", deliver_as="followUp")

    @hookimpl
    async def session_start(self, event: SessionStartEvent, ctx: ExtensionContext) -> None:
        """SessionStart: its context (plain stdout or additionalContext) goes to the model."""
        source = {"resume": "resume", "new": "clear"}.get(event.reason, "startup")
        if source == "startup" and self.runtime.resumed:
            source = "resume"
        await self._session_start(source, ctx)

    @hookimpl
    async def session_compact(self, event: SessionCompactEvent, ctx: ExtensionContext) -> None:
        """SessionStart with `source: compact`, as Claude Code fires after a compaction."""
        await self._session_start("compact", ctx)

    async def _session_start(self, source: str, ctx: ExtensionContext) -> None:
        if not self.runtime.hooks.has("SessionStart"):
            return
        outcome = await self.runtime.hooks.fire("SessionStart", {"source": source})
        self._tell_user(ctx, outcome.user_messages)
        self.pending_context += outcome.additional_context

    @hookimpl
    async def session_shutdown(self, event: SessionShutdownEvent, ctx: ExtensionContext) -> None:
        """SessionEnd (it cannot block)."""
        if self.runtime.hooks.has("SessionEnd"):
            reason = SESSION_END_REASONS.get(event.reason, "other")
            await self.runtime.hooks.fire("SessionEnd", {"reason": reason})

    @hookimpl
    async def session_before_compact(
        self, event: SessionBeforeCompactEvent, ctx: ExtensionContext
    ) -> SessionBeforeCompactResult | None:
        """PreCompact: exit 2 (or `decision: block`) cancels; plain stdout adds instructions."""
        if not self.runtime.hooks.has("PreCompact"):
            return None
        trigger = "manual" if event.custom_instructions is not None else "auto"
        outcome = await self.runtime.hooks.fire(
            "PreCompact",
            {"trigger": trigger, "custom_instructions": event.custom_instructions or ""},
        )
        self._tell_user(ctx, outcome.user_messages)
        if outcome.blocked:
            self._tell_user(ctx, [f"Compaction blocked by PreCompact hook: {outcome.reason}"])
            return SessionBeforeCompactResult(cancel=True)
        if outcome.compact_instructions:
            # the summarizer (a later impl of this hook) reads the event's instructions
            event.custom_instructions = merge_instructions(
                event.custom_instructions, outcome.compact_instructions
            )
        return None

    async def notify(self, message: str, notification_type: str, title: str | None = None) -> None:
        """Fire Notification hooks (pi-claude calls this where Claude would notify)."""
        fields: dict[str, Any] = {"message": message, "notification_type": notification_type}
        if title is not None:
            fields["title"] = title
        if self.runtime.hooks.has("Notification"):
            await self.runtime.hooks.fire("Notification", fields)


def merge_instructions(given: str | None, from_hooks: list[str]) -> str:
    """The user's compaction instructions, then the PreCompact hooks' (joined as Claude Code)."""
    return "\n\n".join(part for part in (given or "", *from_hooks) if part)


def _denial(name: str, call_id: str, tool_input: dict[str, Any]) -> PermissionDenial:
    return PermissionDenial(name, call_id, dict(tool_input))
