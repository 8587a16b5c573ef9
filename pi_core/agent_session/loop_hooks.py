"""The seams between the agent loop and the plugins, as one object the loop is given.

`LoopHooks` answers every question the loop asks on its way: may this tool call run
(`tool_call`), what did it change (`tool_result`), which messages does the LLM see (`context`),
what payload goes out (`before_provider_request`), and what came back (`after_provider_response`).
Every call goes through the `tool_call` hook first (a block becomes the error result the LLM
reads) and its result through the `tool_result` chain, whichever plugin or SDK caller made the
tool.
"""

from __future__ import annotations

from typing import Any

from pi_core.abort import AbortError, AbortSignal
from pi_core.events.agent import AfterProviderResponseEvent
from pi_core.events.tool_events import (
    ToolCallResult,
    ToolResultPatch,
    make_tool_call_event,
    make_tool_result_event,
)
from pi_core.messages.agent import AgentMessage
from pi_core.messages.content import ToolCall
from pi_core.plugins.dispatch import HookDispatcher
from pi_core.tools.tool import ToolResult


class LoopHooks:
    """The agent loop's seams, each answered by its plugin hook through the dispatcher."""

    def __init__(self, dispatcher: HookDispatcher) -> None:
        self.dispatcher = dispatcher

    async def before_tool_call(
        self, call: ToolCall, params: Any, signal: AbortSignal
    ) -> ToolCallResult | None:
        """Ask the `tool_call` hook; a block carries the reason the LLM will read."""
        if not self.dispatcher.has_impls("tool_call"):
            return None
        event = make_tool_call_event(call.name, call.id, params)
        try:  # a hook that hangs must not outlive an abort: cancel it, and the tool stays blocked
            result = await signal.race(self.dispatcher.tool_call(event))
        except AbortError:
            return ToolCallResult(
                block=True, reason="Tool call aborted before its tool_call hooks answered"
            )
        return result if result is not None and result.block else None

    async def after_tool_call(
        self, call: ToolCall, params: Any, result: ToolResult, is_error: bool, signal: AbortSignal
    ) -> ToolResultPatch | None:
        """Pass the result through the `tool_result` chain and return what it changed."""
        if not self.dispatcher.has_impls("tool_result"):
            return None
        event = make_tool_result_event(
            call.name, call.id, params, list(result.content), result.details, is_error
        )
        return await self.dispatcher.tool_result(event)

    async def transform_context(
        self, messages: list[AgentMessage], signal: AbortSignal
    ) -> list[AgentMessage]:
        """Let the `context` chain rewrite the messages the LLM will see."""
        if not self.dispatcher.has_impls("context"):
            return messages
        return await self.dispatcher.context(messages)

    async def on_payload(self, payload: Any) -> Any:
        """Let the `before_provider_request` chain rewrite the provider payload."""
        if not self.dispatcher.has_impls("before_provider_request"):
            return payload
        from pi_core import deep

        # Providers share each message's converted form between requests: impls get their own.
        return await self.dispatcher.before_provider_request(deep.deepcopy(payload))

    async def on_response(self, status: int, headers: dict[str, str]) -> None:
        """Tell `after_provider_response` plugins the status and headers that came back."""
        if not self.dispatcher.has_impls("after_provider_response"):
            return
        await self.dispatcher.notify(
            "after_provider_response", AfterProviderResponseEvent(status=status, headers=headers)
        )
