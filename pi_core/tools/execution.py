"""Running one tool call safely: bad arguments and exceptions become error results for the LLM."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pi_core.tools.tool import Tool, ToolArgumentsError, ToolResult, ToolUpdateCallback

if TYPE_CHECKING:
    from pi_core.abort import AbortSignal
    from pi_core.plugins.context import ExtensionContext


class ToolOutcome:
    """A tool's result and whether the LLM should read it as an error."""

    __slots__ = ("is_error", "result")

    def __init__(self, result: ToolResult, is_error: bool) -> None:
        self.result = result
        self.is_error = is_error


def error_outcome(message: str) -> ToolOutcome:
    """Wrap an error message as the text result the LLM will see."""
    return ToolOutcome(ToolResult.text(message), is_error=True)


async def execute_tool_call(
    tool: Tool[Any],
    call_id: str,
    arguments: dict[str, Any],
    signal: AbortSignal | None,
    on_update: ToolUpdateCallback | None,
    ctx: ExtensionContext,
) -> ToolOutcome:
    """Validate the arguments, run the tool, and never raise: errors become error results."""
    try:
        params = tool.validate_arguments(arguments)
    except ToolArgumentsError as error:
        return error_outcome(str(error))
    try:
        result = await tool.execute(call_id, params, signal, on_update, ctx)
    except Exception as error:  # a tool's failure is the LLM's information, not our crash
        return error_outcome(str(error) or type(error).__name__)
    if not isinstance(result, ToolResult):
        return error_outcome(
            f"Tool {tool.name!r} returned {type(result).__name__}, expected ToolResult"
        )
    return ToolOutcome(result, is_error=False)
