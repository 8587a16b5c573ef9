"""Send the LLM only the last 50 messages (the session file keeps them all)."""

from pi_core import hookimpl
from pi_core.events import ContextEvent, ContextResult

KEEP = 50


@hookimpl
def context(event: ContextEvent) -> ContextResult | None:
    if len(event.messages) <= KEEP:
        return None
    return ContextResult(messages=event.messages[-KEEP:])
