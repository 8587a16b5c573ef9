"""Show in the status line how much text the assistant has streamed so far."""

from pi_core import AssistantMessage, ExtensionContext, TextContent, hookimpl
from pi_core.events import MessageUpdateEvent


@hookimpl
def message_update(event: MessageUpdateEvent, ctx: ExtensionContext) -> None:
    if isinstance(event.message, AssistantMessage):
        chars = sum(len(b.text) for b in event.message.content if isinstance(b, TextContent))
        ctx.ui.set_status("stream", f"{chars} chars")
