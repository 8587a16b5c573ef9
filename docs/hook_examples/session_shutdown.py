"""Flush a plugin's buffered log to disk before pi quits or replaces the session."""

from pathlib import Path

from pi_core import ExtensionContext, hookimpl
from pi_core.events import SessionShutdownEvent

buffered: list[str] = []


@hookimpl
def session_shutdown(event: SessionShutdownEvent, ctx: ExtensionContext) -> None:
    log = Path(ctx.cwd) / ".pi" / "activity.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    with log.open("a", encoding="utf-8") as handle:
        handle.writelines(line + "\n" for line in buffered)
        handle.write(f"shutdown: {event.reason}\n")
    buffered.clear()
