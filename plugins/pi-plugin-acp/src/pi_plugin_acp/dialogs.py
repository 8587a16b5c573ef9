"""The plugin UI of `pi acp` sessions: `ctx.ui.confirm` and `ctx.ui.select` ask the editor.

Each dialog is a `session/request_permission`: about the tool call whose `tool_call` hooks are
running (see pi_plugin_acp.call_scope), else about a synthetic call titled with the question.
It fails closed: a cancelled, failed, timed-out or unknown answer is "no" (None for select).
`input` and `editor` have no ACP request and stay cancelled (the base class answers None);
`notify` goes to stderr, which editors keep as the agent's log: an `agent_message_chunk` would
join the model's reply being streamed and vanish from a reloaded session.
"""

from __future__ import annotations

import asyncio
import sys
import uuid
from collections.abc import Awaitable, Callable
from typing import Any, Literal

from acp.schema import AllowedOutcome, PermissionOption, RequestPermissionResponse, ToolCallUpdate

from pi_core import ExtensionUI
from pi_core.abort import AbortSignal
from pi_plugin_acp.call_scope import current_scope

DIALOG_TIMEOUT = 600.0
ALLOW = "allow"
REJECT = "reject"
CONFIRM_OPTIONS = [
    PermissionOption(option_id=ALLOW, name="Allow", kind="allow_once"),
    PermissionOption(option_id=REJECT, name="Reject", kind="reject_once"),
]

# ask(tool_call, options, meta): one `session/request_permission`; meta becomes its `_meta`
AskDialog = Callable[
    [ToolCallUpdate, list[PermissionOption], dict[str, Any]], Awaitable[RequestPermissionResponse]
]


class AcpDialogUI(ExtensionUI):
    """Turns plugin dialogs into the editor's permission requests."""

    has_ui = True

    def __init__(self, ask: AskDialog) -> None:
        self._ask = ask

    async def confirm(
        self,
        title: str,
        message: str,
        *,
        signal: AbortSignal | None = None,
        timeout: float | None = None,
    ) -> bool:
        """Ask Allow / Reject; an Allow about a tool call answers the ACP gate's question too."""
        scope = current_scope()
        choice = await self._request(title, message, CONFIRM_OPTIONS, signal, timeout)
        allowed = choice == ALLOW
        if allowed and scope is not None:
            scope.approved = True
        return allowed

    async def select(
        self,
        title: str,
        options: list[str],
        *,
        signal: AbortSignal | None = None,
        timeout: float | None = None,
    ) -> str | None:
        """Offer each choice as a permission option; None unless the editor picked one."""
        offered = [
            PermissionOption(option_id=f"choice-{index}", name=text, kind="allow_once")
            for index, text in enumerate(options)
        ]
        choice = await self._request(title, "", offered, signal, timeout)
        chosen = {option.option_id: index for index, option in enumerate(offered)}
        return options[chosen[choice]] if choice in chosen else None

    def notify(self, message: str, type: Literal["info", "warning", "error"] = "info") -> None:
        """Write the notification to stderr (the editor's log of the agent)."""
        print(f"pi [{type}]: {message}", file=sys.stderr, flush=True)

    async def _request(
        self,
        title: str,
        message: str,
        options: list[PermissionOption],
        signal: AbortSignal | None,
        timeout: float | None,
    ) -> str | None:
        """The option id the editor picked; None for anything else."""
        if signal is not None and signal.aborted:
            return None
        scope = current_scope()
        question = f"{title}\n{message}".strip()
        if scope is not None:
            call = ToolCallUpdate(tool_call_id=scope.tool_call_id)
        else:
            call = ToolCallUpdate(
                tool_call_id=f"pi-dialog-{uuid.uuid4().hex}",
                title=question,
                kind="other",
                status="pending",
            )
        meta = {"pi": {"dialog": {"title": title, "message": message}}}
        asking = asyncio.ensure_future(self._ask(call, options, meta))

        def stop() -> None:
            asking.cancel()

        remove = signal.add_listener(stop) if signal is not None else None
        try:
            response = await asyncio.wait_for(asking, timeout or DIALOG_TIMEOUT)
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if task is not None and task.cancelling():
                raise  # the turn itself is being cancelled, not only the dialog
            return None
        except Exception:
            return None
        finally:
            if remove is not None:
                remove()
        outcome = response.outcome
        return outcome.option_id if isinstance(outcome, AllowedOutcome) else None
