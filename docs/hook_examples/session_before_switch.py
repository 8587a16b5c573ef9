"""Ask before leaving the session for a new one; without a UI, never leave it silently."""

from pi_core import ExtensionContext, hookimpl
from pi_core.events import SessionBeforeSwitchEvent, SessionBeforeSwitchResult


@hookimpl
async def session_before_switch(
    event: SessionBeforeSwitchEvent, ctx: ExtensionContext
) -> SessionBeforeSwitchResult | None:
    if event.reason != "new":
        return None
    leave = await ctx.ui.confirm("New session", "Leave this conversation?")
    return None if leave else SessionBeforeSwitchResult(cancel=True)
