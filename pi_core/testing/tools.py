"""Running one tool call in a test, through the agent loop's own tool path (agent/tool_calls.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pi_core.abort import AbortSignal
from pi_core.agent.tool_calls import ToolCallOptions, ToolRunConfig, run_tool_call
from pi_core.events.agent import ToolExecutionUpdateEvent
from pi_core.messages.content import ToolCall
from pi_core.tools.tool import Tool, ToolResult, ToolUpdateCallback

if TYPE_CHECKING:
    from pi_core.plugins.context import ExtensionContext


class ToolOutcome:
    """A tool's result and whether the LLM would read it as an error."""

    __slots__ = ("is_error", "result")

    def __init__(self, result: ToolResult, is_error: bool) -> None:
        self.result = result
        self.is_error = is_error


async def execute_tool_call(
    tool: Tool[Any],
    call_id: str,
    arguments: dict[str, Any],
    signal: AbortSignal | None,
    on_update: ToolUpdateCallback | None,
    ctx: ExtensionContext,
) -> ToolOutcome:
    """Run `tool` as the agent loop runs a call (no hooks): errors become error results."""

    async def emit(event: object) -> None:
        if on_update is not None and isinstance(event, ToolExecutionUpdateEvent):
            on_update(event.partial_result)

    config = ToolRunConfig(tools=[tool], options=ToolCallOptions(tool_context=ctx))
    call = ToolCall(id=call_id, name=tool.name, arguments=arguments)
    message = await run_tool_call(call, config, signal or AbortSignal(), emit)
    result = ToolResult(content=message.content, details=message.details)
    return ToolOutcome(result, is_error=message.is_error)
