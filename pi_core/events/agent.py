"""Events of the agent loop: context, provider requests, agent, turn, message and tool execution."""

from typing import Any, Literal

from pydantic import Field

from pi_core.messages.agent import AgentMessage
from pi_core.messages.base import StrictWireModel, WireModel
from pi_core.messages.content import ImageContent, UserContent
from pi_core.messages.llm import ToolResultMessage
from pi_core.messages.stream import AssistantMessageEvent
from pi_core.model_defaults import empty_list


class ContextEvent(WireModel):
    """The messages about to go to the LLM (a deep copy); plugins may replace them."""

    type: Literal["context"] = "context"
    messages: list[AgentMessage]


class ContextResult(StrictWireModel):
    """Replacement messages for this LLM call."""

    messages: list[AgentMessage] | None = None


class BeforeProviderRequestEvent(WireModel):
    """The provider payload about to be sent; plugins may replace it."""

    type: Literal["before_provider_request"] = "before_provider_request"
    payload: Any


class AfterProviderResponseEvent(WireModel):
    """The provider answered; status and headers, before the stream is read."""

    type: Literal["after_provider_response"] = "after_provider_response"
    status: int
    headers: dict[str, str] = Field(default_factory=dict)


class BeforeAgentStartEvent(WireModel):
    """The prompt is expanded and about to start the agent; last chance to add context."""

    type: Literal["before_agent_start"] = "before_agent_start"
    prompt: str
    images: list[ImageContent] | None = None
    system_prompt: str
    system_prompt_options: dict[str, Any] = Field(default_factory=dict)


class InjectedMessage(StrictWireModel):
    """A custom message a plugin adds to this prompt."""

    custom_type: str
    content: str | list[UserContent]
    display: bool = True
    details: Any = None


class BeforeAgentStartResult(StrictWireModel):
    """A message to inject and/or the system prompt for this prompt only."""

    message: InjectedMessage | None = None
    system_prompt: str | None = None


class BeforeAgentStartOutcome(WireModel):
    """What all before_agent_start impls produced together."""

    messages: list[InjectedMessage] = Field(default_factory=empty_list)
    system_prompt: str | None = None


class AgentStartEvent(WireModel):
    """The agent loop started."""

    type: Literal["agent_start"] = "agent_start"


class AgentEndEvent(WireModel):
    """The agent loop ended; `messages` are those this run produced."""

    type: Literal["agent_end"] = "agent_end"
    messages: list[AgentMessage] = Field(default_factory=empty_list)


class TurnStartEvent(WireModel):
    """A turn (one LLM response and its tool calls) started."""

    type: Literal["turn_start"] = "turn_start"
    turn_index: int
    timestamp: int


class TurnEndEvent(WireModel):
    """A turn ended with its assistant message and tool results."""

    type: Literal["turn_end"] = "turn_end"
    turn_index: int
    message: AgentMessage
    tool_results: list[ToolResultMessage] = Field(default_factory=empty_list)


class MessageStartEvent(WireModel):
    """A message (user, assistant or tool result) started."""

    type: Literal["message_start"] = "message_start"
    message: AgentMessage


class MessageUpdateEvent(WireModel):
    """A streaming assistant message changed."""

    type: Literal["message_update"] = "message_update"
    message: AgentMessage
    assistant_message_event: AssistantMessageEvent


class MessageEndEvent(WireModel):
    """A message is final; plugins may replace it (keeping its role)."""

    type: Literal["message_end"] = "message_end"
    message: AgentMessage


class MessageEndResult(StrictWireModel):
    """The replacement message."""

    message: AgentMessage | None = None


class ToolExecutionStartEvent(WireModel):
    """A tool started running."""

    type: Literal["tool_execution_start"] = "tool_execution_start"
    tool_call_id: str
    tool_name: str
    args: Any = None


class ToolExecutionUpdateEvent(WireModel):
    """A running tool reported partial output."""

    type: Literal["tool_execution_update"] = "tool_execution_update"
    tool_call_id: str
    tool_name: str
    args: Any = None
    partial_result: Any = None


class ToolExecutionEndEvent(WireModel):
    """A tool finished."""

    type: Literal["tool_execution_end"] = "tool_execution_end"
    tool_call_id: str
    tool_name: str
    result: Any = None
    is_error: bool = False
