"""What Copilot's API wants on each chat request, as pi 0.73.1 sends it.

The client identity (`User-Agent`, `Editor-Version`, …) comes with the catalog's model headers;
these are the per-request ones pi adds on all three wire APIs: who started the request (the user,
or the agent following up on a tool result), the intent, and a flag when images are sent.
Copilot's Anthropic endpoint takes the Copilot token as a bearer token, not as `x-api-key`.
"""

from __future__ import annotations

from pi_core.messages import ImageContent, ToolResultMessage, UserMessage
from pi_core.providers import LLMContext, Model


def initiator(context: LLMContext) -> str:
    """`user` when the last message is the user's, else `agent` (a follow-up pi makes itself)."""
    last = context.messages[-1] if context.messages else None
    return "agent" if last is not None and last.role != "user" else "user"


def has_images(context: LLMContext) -> bool:
    """Whether a user message or a tool result carries an image."""
    return any(
        isinstance(message, UserMessage | ToolResultMessage)
        and not isinstance(message.content, str)
        and any(isinstance(block, ImageContent) for block in message.content)
        for message in context.messages
    )


def copilot_headers(
    model: Model, context: LLMContext, api_key: str | None
) -> dict[str, str | None]:
    """The headers of one Copilot request (None removes the wire API's header)."""
    headers: dict[str, str | None] = {
        "X-Initiator": initiator(context),
        "Openai-Intent": "conversation-edits",
    }
    if has_images(context):
        headers["Copilot-Vision-Request"] = "true"
    if model.api == "anthropic-messages":
        headers["authorization"] = f"Bearer {api_key or ''}"
        headers["x-api-key"] = None
    return headers
