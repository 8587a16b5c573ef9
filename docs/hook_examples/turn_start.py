"""Number the turns in the status line."""

from pi_core import ExtensionContext, hookimpl
from pi_core.events import TurnStartEvent


@hookimpl
def turn_start(event: TurnStartEvent, ctx: ExtensionContext) -> None:
    ctx.ui.set_status("turn", f"turn {event.turn_index + 1}")
