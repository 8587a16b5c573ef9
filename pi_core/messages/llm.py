"""The three messages an LLM sees: user, assistant and tool result, with usage and cost."""

import time
from typing import Any, Literal

from pydantic import Field

from pi_core.messages.base import WireModel
from pi_core.messages.content import AssistantContent, TextContent, UserContent
from pi_core.messages.tokens import TokenData
from pi_core.model_defaults import empty_list

StopReason = Literal["stop", "length", "toolUse", "error", "aborted"]


def now_ms() -> int:
    """Return the current time in milliseconds since the epoch, as pi stamps messages."""
    return int(time.time() * 1000)


class Cost(WireModel):
    """Dollar cost of one response, split like the token counts."""

    input: int | float = 0
    output: int | float = 0
    cache_read: int | float = 0
    cache_write: int | float = 0
    total: int | float = 0


class Usage(WireModel):
    """Token counts of one response and what they cost."""

    input: int = 0
    output: int = 0
    cache_read: int = 0
    cache_write: int = 0
    total_tokens: int | None = None  # absent in sessions written by older pi releases
    cost: Cost = Field(default_factory=Cost)

    def total(self) -> int:
        """Return total_tokens, or the sum of the parts when a provider did not report it."""
        if self.total_tokens:
            return self.total_tokens
        return self.input + self.output + self.cache_read + self.cache_write


def content_text(content: str | list[Any]) -> str:
    """Return the text of message content: the string, or its text blocks joined."""
    if isinstance(content, str):
        return content
    return "".join(block.text for block in content if isinstance(block, TextContent))


class UserMessage(WireModel):
    """A message from the user: plain text or a list of text and image blocks."""

    role: Literal["user"] = "user"
    content: str | list[UserContent]
    timestamp: int = Field(default_factory=now_ms)


class AssistantMessage(WireModel):
    """A model's response with the provider that produced it and why it stopped."""

    role: Literal["assistant"] = "assistant"
    content: list[AssistantContent] = Field(default_factory=empty_list)
    api: str = ""
    provider: str = ""
    model: str = ""
    response_model: str | None = None
    response_id: str | None = None
    usage: Usage = Field(default_factory=Usage)
    stop_reason: StopReason = "stop"
    error_message: str | None = None
    timestamp: int = Field(default_factory=now_ms)
    token_data: TokenData | None = None
    """Token ids and logprobs, only when asked for and returned (pi ignores the field)."""


class ToolResultMessage(WireModel):
    """The outcome of one tool call, fed back to the model."""

    role: Literal["toolResult"] = "toolResult"
    tool_call_id: str
    tool_name: str
    content: list[UserContent] = Field(default_factory=empty_list)
    details: Any = None
    is_error: bool = False
    timestamp: int = Field(default_factory=now_ms)


# The three roles an LLM reads; the agent-side roles are converted first (messages/convert.py).
LLMMessage = UserMessage | AssistantMessage | ToolResultMessage
