"""Tell the user which session file the fork came from."""

from pi_core import ExtensionContext, hookimpl
from pi_core.events import SessionForkEvent


@hookimpl
def session_fork(event: SessionForkEvent, ctx: ExtensionContext) -> None:
    ctx.ui.notify(f"forked from {event.previous_session_file or 'an unsaved session'}")
