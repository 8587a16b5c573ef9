"""Clear the status line when a tool finishes, and warn when it failed."""

from pi_core import ExtensionContext, hookimpl
from pi_core.events import ToolExecutionEndEvent


@hookimpl
def tool_execution_end(event: ToolExecutionEndEvent, ctx: ExtensionContext) -> None:
    ctx.ui.set_status("tool", None)
    if event.is_error:
        ctx.ui.notify(f"{event.tool_name} failed", "error")
