"""Greet the user in the status line when a session starts or resumes."""

from pi_core import ExtensionContext, hookimpl
from pi_core.events import SessionStartEvent


@hookimpl
def session_start(event: SessionStartEvent, ctx: ExtensionContext) -> None:
    greeting = "welcome back" if event.reason == "resume" else "ready"
    ctx.ui.set_status("greeter", f"{greeting} in {ctx.cwd}")
