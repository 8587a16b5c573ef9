"""The ACP permission gate: a `tool_call` hook that asks the client before a tool runs.

It fails closed: an error or timeout of `session/request_permission`, or a cancelled request,
blocks the tool, and the model is told why.

The gate has two parts: its front runs before every other `tool_call` hook (plan mode and saved
rejections block there, before any plugin asks), its back after them all. A plugin's confirm
about the same call that the editor allowed (see pi_plugin_acp.dialogs) stands for the back's
question, so the editor is asked once."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from acp import update_tool_call
from acp.schema import (
    AllowedOutcome,
    PermissionOption,
    RequestPermissionResponse,
    ToolCallUpdate,
)

from pi_core import hookimpl
from pi_core.events import ToolCallEvent, ToolCallResult, ToolExecutionEndEvent
from pi_plugin_acp.call_scope import CallScope, close_scope, open_scope
from pi_plugin_acp.modes import PLAN, SessionModeHolder, mode_verdict
from pi_plugin_acp.rules import PermissionRules, Verdict

ASK_TIMEOUT = 600.0

OPTIONS = [
    PermissionOption(option_id="allow_once", name="Allow", kind="allow_once"),
    PermissionOption(option_id="allow_always", name="Always allow", kind="allow_always"),
    PermissionOption(option_id="reject_once", name="Reject", kind="reject_once"),
    PermissionOption(option_id="reject_always", name="Always reject", kind="reject_always"),
]

Ask = Callable[[Any, list[PermissionOption]], Awaitable[RequestPermissionResponse]]
Notify = Callable[[Any], Awaitable[None]]


class AcpPermissionGate:
    """Asks the ACP client whether each non-read-only tool call may run (the session's mode may
    decide first: see pi_plugin_acp.modes)."""

    def __init__(
        self,
        ask: Ask,
        notify: Notify,
        rules: PermissionRules,
        mode: SessionModeHolder | None = None,
        cwd: str = ".",
    ) -> None:
        self._ask = ask
        self._notify = notify
        self._rules = rules
        self._mode = mode or SessionModeHolder()
        self._cwd = cwd
        self._scopes: dict[str, CallScope] = {}

    @property
    def plugins(self) -> list[object]:
        """The plugin objects to register: the front and the gate itself."""
        return [_GateFront(self), self]

    def front(self, event: ToolCallEvent) -> ToolCallResult | None:
        """Open the call's dialog scope; block at once in plan mode or on a saved rejection."""
        self._scopes[event.tool_call_id] = open_scope(event.tool_call_id)
        name = event.tool_name
        mode = self._mode.current
        if mode == PLAN and mode_verdict(mode, name, event.input, self._cwd) == "reject":
            reason = f"{name} is not allowed: the session is in plan (read-only) mode."
            return ToolCallResult(block=True, reason=reason)
        if self._rules.verdict(name) == "reject":
            return ToolCallResult(block=True, reason=f"The user denied permission to run {name}.")
        return None

    @hookimpl(trylast=True)
    async def tool_call(self, event: ToolCallEvent, ctx: Any) -> ToolCallResult | None:
        """Block the call unless the client (or a saved rule, or the mode) allows it."""
        scope = close_scope(event.tool_call_id)
        self._scopes.pop(event.tool_call_id, None)
        name = event.tool_name
        verdict = mode_verdict(self._mode.current, name, event.input, self._cwd)
        if verdict is None:
            verdict = self._rules.verdict(name)
        if verdict is None and scope is not None and scope.approved:
            verdict = "allow"  # the editor allowed this call in a plugin's dialog just now
        if verdict is None:
            verdict = await self._decide(event)
        if verdict != "allow":
            return ToolCallResult(block=True, reason=f"The user denied permission to run {name}.")
        await self._notify(update_tool_call(event.tool_call_id, status="in_progress"))
        return None

    @hookimpl
    def tool_execution_end(self, event: ToolExecutionEndEvent) -> None:
        """Close the scope of a call that another gate blocked (the back never saw it)."""
        scope = self._scopes.pop(event.tool_call_id, None)
        if scope is not None:
            scope.closed = True

    async def _decide(self, event: ToolCallEvent) -> Verdict:
        request = ToolCallUpdate(
            tool_call_id=event.tool_call_id, status="pending", raw_input=event.input
        )
        try:
            response = await asyncio.wait_for(self._ask(request, OPTIONS), ASK_TIMEOUT)
        except Exception:
            return "reject"
        outcome = response.outcome
        if not isinstance(outcome, AllowedOutcome):
            return "reject"
        choice = outcome.option_id
        if choice == "allow_always":
            self._rules.remember(event.tool_name, "allow")
        elif choice == "reject_always":
            self._rules.remember(event.tool_name, "reject")
        return "allow" if choice in ("allow_once", "allow_always") else "reject"


class _GateFront:
    """The gate's front, run before every other `tool_call` hook."""

    def __init__(self, gate: AcpPermissionGate) -> None:
        self._gate = gate

    @hookimpl(tryfirst=True)
    def tool_call(self, event: ToolCallEvent) -> ToolCallResult | None:
        """See AcpPermissionGate.front."""
        return self._gate.front(event)
