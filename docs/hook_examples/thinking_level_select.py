"""Show the thinking level in the status line, hidden when thinking is off."""

from pi_core import ExtensionContext, hookimpl
from pi_core.events import ThinkingLevelSelectEvent


@hookimpl
def thinking_level_select(event: ThinkingLevelSelectEvent, ctx: ExtensionContext) -> None:
    ctx.ui.set_status("thinking", None if event.level == "off" else f"thinking: {event.level}")
