"""Agent-side message roles that live in sessions and are converted before reaching an LLM."""

from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field, TypeAdapter

from pi_core.messages.base import WireModel
from pi_core.messages.content import UserContent
from pi_core.messages.llm import AssistantMessage, ToolResultMessage, UserMessage, now_ms


class BashExecutionMessage(WireModel):
    """A shell command the user ran with `!` (or `!!`, excluded from the context)."""

    role: Literal["bashExecution"] = "bashExecution"
    command: str
    output: str
    exit_code: int | None = None
    cancelled: bool = False
    truncated: bool = False
    full_output_path: str | None = None
    timestamp: int = Field(default_factory=now_ms)
    exclude_from_context: bool | None = None


class CustomMessage(WireModel):
    """A message a plugin injected; `display` says whether the UI shows it."""

    role: Literal["custom"] = "custom"
    custom_type: str
    content: str | list[UserContent]
    display: bool = True
    details: Any = None
    timestamp: int = Field(default_factory=now_ms)


class BranchSummaryMessage(WireModel):
    """A summary of a branch the user navigated away from."""

    role: Literal["branchSummary"] = "branchSummary"
    summary: str
    from_id: str
    timestamp: int = Field(default_factory=now_ms)


class CompactionSummaryMessage(WireModel):
    """The summary that stands in for compacted history."""

    role: Literal["compactionSummary"] = "compactionSummary"
    summary: str
    tokens_before: int
    timestamp: int = Field(default_factory=now_ms)


AgentMessage = Annotated[
    UserMessage
    | AssistantMessage
    | ToolResultMessage
    | BashExecutionMessage
    | CustomMessage
    | BranchSummaryMessage
    | CompactionSummaryMessage,
    Field(discriminator="role"),
]
"""Any message the agent keeps: the LLM roles plus the agent-side ones."""

agent_message_adapter: TypeAdapter[AgentMessage] = TypeAdapter(
    AgentMessage, config=ConfigDict(defer_build=True)
)


def parse_agent_message(data: dict[str, Any]) -> AgentMessage:
    """Validate a JSON dict (pi's field names) into the matching message model."""
    return agent_message_adapter.validate_python(data)
