"""Keep the latest partial output of each running tool call, e.g. for a live widget."""

from typing import Any

from pi_core import hookimpl
from pi_core.events import ToolExecutionUpdateEvent

latest_output: dict[str, Any] = {}


@hookimpl
def tool_execution_update(event: ToolExecutionUpdateEvent) -> None:
    latest_output[event.tool_call_id] = event.partial_result
