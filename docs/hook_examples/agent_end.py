"""Clear the status line and say how many messages the run produced."""

from pi_core import ExtensionContext, hookimpl
from pi_core.events import AgentEndEvent


@hookimpl
def agent_end(event: AgentEndEvent, ctx: ExtensionContext) -> None:
    ctx.ui.set_status("busy", None)
    ctx.ui.notify(f"done: {len(event.messages)} messages")
