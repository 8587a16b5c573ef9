"""Block `rm -rf`, and make every other bash command time out after two minutes."""

from pi_core import hookimpl
from pi_core.events import BashToolCallEvent, ToolCallEvent, ToolCallResult


@hookimpl
def tool_call(event: ToolCallEvent) -> ToolCallResult | None:
    if not isinstance(event, BashToolCallEvent):
        return None
    if "rm -rf" in event.input.command:
        return ToolCallResult(block=True, reason="rm -rf is not allowed here")
    event.input.timeout = min(event.input.timeout or 120, 120)  # changes the call in place
    return None
