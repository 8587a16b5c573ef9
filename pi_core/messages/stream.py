"""Events a provider streams while it builds an assistant message."""

from typing import Annotated, Literal

from pydantic import Field

from pi_core.messages.base import WireModel
from pi_core.messages.content import ToolCall
from pi_core.messages.llm import AssistantMessage


class StreamStart(WireModel):
    """The response began; `partial` is the message so far."""

    type: Literal["start"] = "start"
    partial: AssistantMessage


class _BlockEvent(WireModel):
    content_index: int
    partial: AssistantMessage


class TextStart(_BlockEvent):
    """A text block opened."""

    type: Literal["text_start"] = "text_start"


class TextDelta(_BlockEvent):
    """More text arrived."""

    type: Literal["text_delta"] = "text_delta"
    delta: str


class TextEnd(_BlockEvent):
    """A text block closed with its full content."""

    type: Literal["text_end"] = "text_end"
    content: str


class ThinkingStart(_BlockEvent):
    """A thinking block opened."""

    type: Literal["thinking_start"] = "thinking_start"


class ThinkingDelta(_BlockEvent):
    """More thinking arrived."""

    type: Literal["thinking_delta"] = "thinking_delta"
    delta: str


class ThinkingEnd(_BlockEvent):
    """A thinking block closed with its full content."""

    type: Literal["thinking_end"] = "thinking_end"
    content: str


class ToolCallStart(_BlockEvent):
    """A tool call opened."""

    type: Literal["toolcall_start"] = "toolcall_start"


class ToolCallDelta(_BlockEvent):
    """More of a tool call's JSON arguments arrived."""

    type: Literal["toolcall_delta"] = "toolcall_delta"
    delta: str


class ToolCallEnd(_BlockEvent):
    """A tool call closed with its parsed arguments."""

    type: Literal["toolcall_end"] = "toolcall_end"
    tool_call: ToolCall


class StreamDone(WireModel):
    """The response finished normally."""

    type: Literal["done"] = "done"
    reason: Literal["stop", "length", "toolUse"]
    message: AssistantMessage


class StreamError(WireModel):
    """The response failed or was aborted; `error` holds what arrived, with the error message."""

    type: Literal["error"] = "error"
    reason: Literal["aborted", "error"]
    error: AssistantMessage


AssistantMessageEvent = Annotated[
    StreamStart
    | TextStart
    | TextDelta
    | TextEnd
    | ThinkingStart
    | ThinkingDelta
    | ThinkingEnd
    | ToolCallStart
    | ToolCallDelta
    | ToolCallEnd
    | StreamDone
    | StreamError,
    Field(discriminator="type"),
]
"""One event of a provider's stream."""
