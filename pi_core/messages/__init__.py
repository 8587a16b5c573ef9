"""Message and content types, compatible with pi's JSON."""

from pi_core.messages.agent import (
    AgentMessage,
    BashExecutionMessage,
    BranchSummaryMessage,
    CompactionSummaryMessage,
    CustomMessage,
    parse_agent_message,
)
from pi_core.messages.base import WireModel
from pi_core.messages.content import (
    AssistantContent,
    ImageContent,
    TextContent,
    ThinkingContent,
    ToolCall,
    UserContent,
)
from pi_core.messages.convert import convert_to_llm
from pi_core.messages.llm import (
    AssistantMessage,
    Cost,
    LLMMessage,
    StopReason,
    ToolResultMessage,
    Usage,
    UserMessage,
    content_text,
    now_ms,
)
from pi_core.messages.partial_text import bring_up_to_date
from pi_core.messages.stream import AssistantMessageEvent
from pi_core.messages.tokens import TokenData

__all__ = [
    "AgentMessage",
    "AssistantContent",
    "AssistantMessage",
    "AssistantMessageEvent",
    "BashExecutionMessage",
    "BranchSummaryMessage",
    "CompactionSummaryMessage",
    "Cost",
    "CustomMessage",
    "ImageContent",
    "LLMMessage",
    "StopReason",
    "TextContent",
    "ThinkingContent",
    "TokenData",
    "ToolCall",
    "ToolResultMessage",
    "Usage",
    "UserContent",
    "UserMessage",
    "WireModel",
    "bring_up_to_date",
    "content_text",
    "convert_to_llm",
    "now_ms",
    "parse_agent_message",
]
