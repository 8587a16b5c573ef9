"""Show a working indicator in the status line while the agent runs (see agent_end)."""

from pi_core import ExtensionContext, hookimpl
from pi_core.events import AgentStartEvent


@hookimpl
def agent_start(event: AgentStartEvent, ctx: ExtensionContext) -> None:
    ctx.ui.set_status("busy", "agent running…")
