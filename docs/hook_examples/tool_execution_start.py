"""Show which tool is running in the status line."""

from pi_core import ExtensionContext, hookimpl
from pi_core.events import ToolExecutionStartEvent


@hookimpl
def tool_execution_start(event: ToolExecutionStartEvent, ctx: ExtensionContext) -> None:
    ctx.ui.set_status("tool", f"running {event.tool_name}")
