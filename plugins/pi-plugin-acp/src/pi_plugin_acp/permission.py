"""The ACP permission gate: a `tool_call` hook that asks the client before a tool runs.

It fails closed: an error or timeout of `session/request_permission`, or a cancelled request,
blocks the tool, and the model is told why."""

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
from pi_core.events import ToolCallEvent, ToolCallResult
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

    @hookimpl
    async def tool_call(self, event: ToolCallEvent, ctx: Any) -> ToolCallResult | None:
        """Block the call unless the client (or a saved rule) allows it."""
        name = event.tool_name
        mode = self._mode.current
        verdict = mode_verdict(mode, name, event.input, self._cwd)
        if verdict == "reject" and mode == PLAN:
            reason = f"{name} is not allowed: the session is in plan (read-only) mode."
            return ToolCallResult(block=True, reason=reason)
        saved = self._rules.verdict(name)
        if saved == "reject" or verdict is None:
            verdict = saved  # a saved rejection wins over the mode's leave
        if verdict is None:
            verdict = await self._decide(event)
        if verdict != "allow":
            return ToolCallResult(block=True, reason=f"The user denied permission to run {name}.")
        await self._notify(update_tool_call(event.tool_call_id, status="in_progress"))
        return None

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
