"""The message and content models that other models embed get their validators built up front.

Every wire model defers building its validator to first use (`defer_build`). A model that embeds
another, not yet built one generates that one's schema inline and leaves it unbuilt, so each
event, result and session model that holds an `AgentMessage` (`message_start`, `message_end`,
`turn_end`, the session context, a tool's result…) generated the whole message union again:
~50 ms of a `pi -p` run on the first use of each. Built here once, when `pi_core.messages` is
imported (~5 ms), their schemas are reused by every model that embeds them.
"""

from __future__ import annotations

from pydantic import BaseModel

from pi_core.messages.agent import (
    BashExecutionMessage,
    BranchSummaryMessage,
    CompactionSummaryMessage,
    CustomMessage,
)
from pi_core.messages.content import ImageContent, TextContent, ThinkingContent, ToolCall
from pi_core.messages.llm import AssistantMessage, Cost, ToolResultMessage, Usage, UserMessage

SHARED: tuple[type[BaseModel], ...] = (
    TextContent,
    ThinkingContent,
    ImageContent,
    ToolCall,
    Cost,
    Usage,
    UserMessage,
    AssistantMessage,
    ToolResultMessage,
    BashExecutionMessage,
    CustomMessage,
    BranchSummaryMessage,
    CompactionSummaryMessage,
)
"""Leaves first: each model's own schema reuses those built before it."""


def build_shared_models() -> None:
    """Build the validators of the shared models now (a no-op for those already built)."""
    for model in SHARED:
        if not model.__pydantic_complete__:
            model.model_rebuild()
