"""The agent loop: stream a response, run its tool calls, feed the results back, until done.

Events come out in pi's order: agent_start, turn_start, the prompt's message_start/end, the
assistant's message_start/update…/end, tool_execution_start/update/end and the tool results'
message_start/end, turn_end, … agent_end.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from pi_core.abort import AbortSignal
from pi_core.agent.tool_calls import Emit, ToolCallOptions, ToolRunConfig, run_tool_calls
from pi_core.ai.model import Model
from pi_core.ai.protocol import LLMContext, LLMMessage, StreamFunction, StreamOptions, ToolSpec
from pi_core.events.agent import (
    AgentEndEvent,
    AgentStartEvent,
    MessageEndEvent,
    MessageStartEvent,
    MessageUpdateEvent,
    TurnEndEvent,
    TurnStartEvent,
)
from pi_core.messages.agent import AgentMessage
from pi_core.messages.llm import AssistantMessage, ToolResultMessage, UserMessage
from pi_core.messages.stream import StreamDone, StreamError, StreamStart
from pi_core.messages.trusted import construct_trusted

MessagesFn = Callable[[], Awaitable[list[AgentMessage]]]


def default_convert_to_llm(messages: list[AgentMessage]) -> list[LLMMessage]:
    """Keep only the roles an LLM understands (the session layer converts the others first)."""
    return [
        m for m in messages if isinstance(m, UserMessage | AssistantMessage | ToolResultMessage)
    ]


@dataclass(kw_only=True)
class LoopOptions(ToolCallOptions):
    """The loop's seams, set once for an agent, with its tool-call options. `AgentOptions` is
    one; each run's `LoopConfig` refers to it rather than copying its fields."""

    convert_to_llm: Callable[[list[AgentMessage]], list[LLMMessage]] = default_convert_to_llm
    transform_context: (
        Callable[[list[AgentMessage], AbortSignal], Awaitable[list[AgentMessage]]] | None
    ) = None
    get_api_key: Callable[[str], Awaitable[str | None]] | None = None
    stream_options: StreamOptions = field(default_factory=StreamOptions)
    """The base of every request's options (a run adds the thinking level and the headers)."""


@dataclass
class LoopConfig:
    """What one run needs: the agent's options, the model, its stream and this run's request
    options, the tools, and the queues."""

    options: LoopOptions
    model: Model
    stream: StreamFunction
    tools: ToolRunConfig
    request_options: StreamOptions = field(default_factory=StreamOptions)
    """`options.stream_options` with this run's thinking level and resolved headers."""
    get_steering_messages: MessagesFn | None = None
    get_follow_up_messages: MessagesFn | None = None


@dataclass
class LoopContext:
    """The conversation the loop extends: system prompt, messages and the tools' specs."""

    system_prompt: str
    messages: list[AgentMessage]
    tool_specs: list[ToolSpec] = field(default_factory=list)


class _TurnCounter:
    def __init__(self) -> None:
        self.index = 0

    def start(self) -> TurnStartEvent:
        event = TurnStartEvent(turn_index=self.index, timestamp=int(time.time() * 1000))
        self.index += 1
        return event


async def run_agent_loop(
    prompts: list[AgentMessage],
    context: LoopContext,
    config: LoopConfig,
    signal: AbortSignal,
    emit: Emit,
) -> list[AgentMessage]:
    """Add `prompts` to the conversation and run until the agent stops; return new messages."""
    new_messages: list[AgentMessage] = list(prompts)
    context.messages.extend(prompts)
    turns = _TurnCounter()
    await emit(AgentStartEvent())
    await emit(turns.start())
    for prompt in prompts:
        await emit(MessageStartEvent(message=prompt))
        await emit(MessageEndEvent(message=prompt))
    await _run_turns(context, new_messages, config, signal, emit, turns)
    return new_messages


async def continue_agent_loop(
    context: LoopContext, config: LoopConfig, signal: AbortSignal, emit: Emit
) -> list[AgentMessage]:
    """Run from the conversation as it is (its last message must not be the assistant's)."""
    if not context.messages:
        raise ValueError("Cannot continue: no messages in context")
    if isinstance(context.messages[-1], AssistantMessage):
        raise ValueError("Cannot continue from message role: assistant")
    new_messages: list[AgentMessage] = []
    turns = _TurnCounter()
    await emit(AgentStartEvent())
    await emit(turns.start())
    await _run_turns(context, new_messages, config, signal, emit, turns)
    return new_messages


async def _poll(source: MessagesFn | None) -> list[AgentMessage]:
    return list(await source()) if source is not None else []


async def _run_turns(
    context: LoopContext,
    new_messages: list[AgentMessage],
    config: LoopConfig,
    signal: AbortSignal,
    emit: Emit,
    turns: _TurnCounter,
) -> None:
    first_turn = True
    pending = await _poll(config.get_steering_messages)
    while True:
        more_tool_calls = True
        while more_tool_calls or pending:
            if not first_turn:
                await emit(turns.start())
            first_turn = False
            for message in pending:
                await emit(MessageStartEvent(message=message))
                await emit(MessageEndEvent(message=message))
                context.messages.append(message)
                new_messages.append(message)
            pending = []

            assistant = await stream_assistant_response(context, config, signal, emit)
            new_messages.append(assistant)
            if assistant.stop_reason in ("error", "aborted"):
                await emit(TurnEndEvent(turn_index=turns.index - 1, message=assistant))
                await emit(AgentEndEvent(messages=new_messages))
                return

            results = await run_tool_calls(assistant, config.tools, signal, emit)
            more_tool_calls = bool(results)
            context.messages.extend(results)
            new_messages.extend(results)
            await emit(
                TurnEndEvent(turn_index=turns.index - 1, message=assistant, tool_results=results)
            )
            pending = await _poll(config.get_steering_messages)
        follow_ups = await _poll(config.get_follow_up_messages)
        if not follow_ups:
            break
        pending = follow_ups
    await emit(AgentEndEvent(messages=new_messages))


async def stream_assistant_response(
    context: LoopContext, config: LoopConfig, signal: AbortSignal, emit: Emit
) -> AssistantMessage:
    """Stream one response into the conversation, emitting message_start/update/end."""
    messages = context.messages
    seams = config.options
    if seams.transform_context is not None:
        messages = await seams.transform_context(messages, signal)
    llm_context = LLMContext(
        system_prompt=context.system_prompt,
        messages=seams.convert_to_llm(messages),
        tools=context.tool_specs,
    )
    options = StreamOptions(**{**config.request_options.__dict__, "signal": signal})
    if seams.get_api_key is not None:
        options.api_key = await seams.get_api_key(config.model.provider) or options.api_key

    partial_added = False
    final: AssistantMessage | None = None
    events = config.stream(config.model, llm_context, options)
    try:
        async for event in events:
            if partial_added and not isinstance(event, _START_OR_END):  # a delta: most events
                # in the model's field order: construct_trusted keeps the dict as it is
                fields = {
                    "type": "message_update",
                    "message": event.partial,
                    "assistant_message_event": event,
                }
                await emit(construct_trusted(MessageUpdateEvent, fields))
            elif isinstance(event, StreamStart):
                context.messages.append(event.partial)
                partial_added = True
                await emit(
                    MessageStartEvent.model_construct(type="message_start", message=event.partial)
                )
            elif isinstance(event, StreamDone | StreamError):
                final = event.message if isinstance(event, StreamDone) else event.error
                break
    finally:
        # Closed here, not left to the garbage collector: asyncio finalises an abandoned async
        # generator through a thread-safe callback and a task of its own, on every request.
        aclose = getattr(events, "aclose", None)
        if aclose is not None:
            await aclose()
    if final is None:
        final = _stream_ended_early(config.model, signal)
    if partial_added:
        context.messages[-1] = final
    else:
        context.messages.append(final)
        await emit(MessageStartEvent(message=final))
    await emit(MessageEndEvent(message=final))
    return final


_START_OR_END = (StreamStart, StreamDone, StreamError)


def _stream_ended_early(model: Model, signal: AbortSignal) -> AssistantMessage:
    return AssistantMessage(
        api=model.api,
        provider=model.provider,
        model=model.id,
        stop_reason="aborted" if signal.aborted else "error",
        error_message="Operation aborted" if signal.aborted else "Stream ended without a result",
    )


__all__ = [
    "LoopConfig",
    "LoopContext",
    "LoopOptions",
    "continue_agent_loop",
    "default_convert_to_llm",
    "run_agent_loop",
    "stream_assistant_response",
]
