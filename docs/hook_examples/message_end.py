"""Replace a secret that slipped into an assistant's final text before it is stored."""

from pi_core import AssistantMessage, TextContent, hookimpl
from pi_core.events import MessageEndEvent, MessageEndResult

SECRET = "hunter2"


@hookimpl
def message_end(event: MessageEndEvent) -> MessageEndResult | None:
    message = event.message
    if not isinstance(message, AssistantMessage):
        return None
    content = [
        TextContent(text=block.text.replace(SECRET, "[redacted]"))
        if isinstance(block, TextContent)
        else block
        for block in message.content
    ]
    return MessageEndResult(message=message.model_copy(update={"content": content}))
