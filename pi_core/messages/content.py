"""Content blocks: text, thinking, images and tool calls, as pi's LLM layer names them."""

from typing import Annotated, Any, Literal

from pydantic import Field

from pi_core.messages.base import WireModel


class TextContent(WireModel):
    """A block of text, optionally with a provider signature."""

    type: Literal["text"] = "text"
    text: str
    text_signature: str | None = None


class ThinkingContent(WireModel):
    """Model reasoning; `redacted` blocks keep the opaque payload in `thinking_signature`."""

    type: Literal["thinking"] = "thinking"
    thinking: str
    thinking_signature: str | None = None
    redacted: bool | None = None


class ImageContent(WireModel):
    """A base64-encoded image."""

    type: Literal["image"] = "image"
    data: str
    mime_type: str


class ToolCall(WireModel):
    """A request from the model to run a tool with JSON arguments."""

    type: Literal["toolCall"] = "toolCall"
    id: str
    name: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    thought_signature: str | None = None


UserContent = Annotated[TextContent | ImageContent, Field(discriminator="type")]
"""What a user message or a tool result may hold."""

AssistantContent = Annotated[TextContent | ThinkingContent | ToolCall, Field(discriminator="type")]
"""What an assistant message may hold."""
