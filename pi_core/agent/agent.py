"""The stateful agent: the transcript, the model, steering and follow-up queues, runs and aborts."""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable, Callable
from dataclasses import KW_ONLY, dataclass, field, replace
from typing import Any, Literal

from pi_core.abort import AbortController, AbortSignal
from pi_core.agent.loop import (
    LoopConfig,
    LoopContext,
    LoopOptions,
    continue_agent_loop,
    run_agent_loop,
)
from pi_core.agent.tool_calls import ToolRunConfig
from pi_core.ai.model import Model
from pi_core.ai.protocol import StreamFunction, ToolSpec
from pi_core.events.agent import (
    AgentEndEvent,
    MessageEndEvent,
    MessageStartEvent,
    MessageUpdateEvent,
    ToolExecutionEndEvent,
    ToolExecutionStartEvent,
    TurnEndEvent,
)
from pi_core.messages.agent import AgentMessage
from pi_core.messages.content import ImageContent, TextContent
from pi_core.messages.llm import AssistantMessage, UserMessage
from pi_core.tools.tool import Tool

QueueMode = Literal["all", "one-at-a-time"]
Listener = Callable[[Any, AbortSignal], Any]


class AgentBusyError(RuntimeError):
    """A prompt arrived while the agent was running; steer or follow up instead."""


class _Queue:
    def __init__(self, mode: QueueMode) -> None:
        self.mode: QueueMode = mode
        self.items: list[AgentMessage] = []

    def drain(self) -> list[AgentMessage]:
        if self.mode == "all":
            drained, self.items = self.items, []
            return drained
        return [self.items.pop(0)] if self.items else []


@dataclass
class AgentState:
    """What the agent holds between runs and shows while running."""

    system_prompt: str = ""
    model: Model | None = None
    thinking_level: str = "off"
    tools: list[Tool[Any]] = field(default_factory=list)
    messages: list[AgentMessage] = field(default_factory=list)
    is_streaming: bool = False
    streaming_message: AgentMessage | None = None
    pending_tool_calls: set[str] = field(default_factory=set)
    error_message: str | None = None


@dataclass
class AgentOptions(LoopOptions):
    """The agent's collaborators; the session layer fills in the seams.

    `stream_for` may be given by position, every other option by keyword: the loop's seams and
    the tool-call options are declared once, in `LoopOptions` and `ToolCallOptions`, and each run
    passes this object down as is.
    """

    stream_for: Callable[[Model], StreamFunction]
    _: KW_ONLY
    request_headers: Callable[[Model], dict[str, str]] | None = None
    """The model's headers with `!command` and environment values resolved, for each run."""
    session_id: Callable[[], str | None] | None = None
    """The session's id, handed to providers with each run (prompt-cache affinity), as pi."""
    steering_mode: QueueMode = "one-at-a-time"
    follow_up_mode: QueueMode = "one-at-a-time"


class Agent:
    """Runs prompts through the loop, keeps the transcript, and tells listeners everything."""

    def __init__(self, options: AgentOptions, state: AgentState | None = None) -> None:
        self.options = options
        self.state = state or AgentState()
        self._listeners: list[Listener] = []
        self._steering = _Queue(options.steering_mode)
        self._follow_ups = _Queue(options.follow_up_mode)
        self._run: asyncio.Future[None] | None = None
        self._abort: AbortController | None = None

    # --- listening ------------------------------------------------------------------------

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call `listener(event, signal)` for each event (awaited in order); returns unsubscribe."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    # --- queues ---------------------------------------------------------------------------

    @property
    def steering_mode(self) -> QueueMode:
        """How queued steering messages are delivered: all at once or one per turn."""
        return self._steering.mode

    @steering_mode.setter
    def steering_mode(self, mode: QueueMode) -> None:
        self._steering.mode = mode

    @property
    def follow_up_mode(self) -> QueueMode:
        """How queued follow-up messages are delivered."""
        return self._follow_ups.mode

    @follow_up_mode.setter
    def follow_up_mode(self, mode: QueueMode) -> None:
        self._follow_ups.mode = mode

    def steer(self, message: AgentMessage) -> None:
        """Deliver `message` after the current tool (remaining calls may be skipped)."""
        self._steering.items.append(message)

    def follow_up(self, message: AgentMessage) -> None:
        """Deliver `message` when the agent would otherwise stop."""
        self._follow_ups.items.append(message)

    def has_queued_messages(self) -> bool:
        """Return whether steering or follow-up messages wait."""
        return bool(self._steering.items or self._follow_ups.items)

    def clear_queues(self) -> tuple[list[AgentMessage], list[AgentMessage]]:
        """Empty both queues and return (steering, follow-ups) as they were."""
        steering, follow_ups = self._steering.items, self._follow_ups.items
        self._steering.items, self._follow_ups.items = [], []
        return steering, follow_ups

    # --- runs -----------------------------------------------------------------------------

    @property
    def is_streaming(self) -> bool:
        """Return whether a run is in progress."""
        return self._run is not None

    @property
    def signal(self) -> AbortSignal | None:
        """Return the current run's abort signal."""
        return self._abort.signal if self._abort else None

    def abort(self) -> None:
        """Abort the current run: the stream is cancelled and running tools get the signal."""
        if self._abort is not None:
            self._abort.abort()

    async def wait_for_idle(self) -> None:
        """Wait until the current run (and its listeners) finished."""
        if self._run is not None:
            await asyncio.shield(self._run)

    async def prompt(
        self,
        input: str | AgentMessage | list[AgentMessage],
        images: list[ImageContent] | None = None,
    ) -> None:
        """Run the agent on a new user prompt (text, a message, or several messages)."""
        if self._run is not None:
            raise AgentBusyError(
                "Agent is already processing a prompt. Use steer() or follow_up() to queue "
                "messages, or wait for completion."
            )
        await self._lifecycle(lambda signal: self._run_prompts(_normalize(input, images), signal))

    async def continue_(self) -> None:
        """Run from the transcript as it is (after a retry or an error)."""
        if self._run is not None:
            raise AgentBusyError("Agent is already processing. Wait for completion first.")
        last = self.state.messages[-1] if self.state.messages else None
        if last is None:
            raise ValueError("No messages to continue from")
        if isinstance(last, AssistantMessage):
            queued = self._steering.drain() or self._follow_ups.drain()
            if not queued:
                raise ValueError("Cannot continue from message role: assistant")
            await self._lifecycle(lambda signal: self._run_prompts(queued, signal))
            return
        await self._lifecycle(self._run_continue)

    def reset(self) -> None:
        """Forget the transcript and the queues."""
        self.state.messages = []
        self.state.error_message = None
        self.clear_queues()

    async def _run_prompts(self, prompts: list[AgentMessage], signal: AbortSignal) -> None:
        await run_agent_loop(prompts, self._context(), self._config(), signal, self._process)

    async def _run_continue(self, signal: AbortSignal) -> None:
        await continue_agent_loop(self._context(), self._config(), signal, self._process)

    async def _lifecycle(self, body: Callable[[AbortSignal], Awaitable[None]]) -> None:
        loop = asyncio.get_running_loop()
        self._run = loop.create_future()
        self._abort = AbortController()
        self.state.is_streaming = True
        self.state.error_message = None
        signal = self._abort.signal
        try:
            await body(signal)
        except Exception as error:
            await self._fail(error, signal)
        finally:
            self.state.is_streaming = False
            self.state.streaming_message = None
            self.state.pending_tool_calls = set()
            run, self._run, self._abort = self._run, None, None
            if not run.done():
                run.set_result(None)

    async def _fail(self, error: Exception, signal: AbortSignal) -> None:
        model = self.state.model
        failure = AssistantMessage(
            content=[TextContent(text="")],
            api=model.api if model else "unknown",
            provider=model.provider if model else "unknown",
            model=model.id if model else "unknown",
            stop_reason="aborted" if signal.aborted else "error",
            error_message=str(error) or type(error).__name__,
        )
        self.state.messages.append(failure)
        self.state.error_message = failure.error_message
        await self._process(AgentEndEvent(messages=[failure]))

    def _context(self) -> LoopContext:
        specs = [ToolSpec(t.name, t.description, t.parameters_schema()) for t in self.state.tools]
        return LoopContext(self.state.system_prompt, list(self.state.messages), specs)

    def _config(self) -> LoopConfig:
        model = self.state.model
        if model is None:
            raise ValueError("No model selected")
        options = self.options
        level = self.state.thinking_level
        request = replace(options.stream_options, reasoning=None if level == "off" else level)
        if options.session_id is not None:
            request.session_id = options.session_id()
        if options.request_headers is not None:
            resolved = options.request_headers(model)
            if resolved:
                request.headers = {**resolved, **(request.headers or {})}
            if model.headers:  # the resolved headers travel in the request options only
                model = model.model_copy(update={"headers": None})
        return LoopConfig(
            options=options,
            model=model,
            stream=options.stream_for(model),
            tools=ToolRunConfig(
                tools=list(self.state.tools),
                options=options,
                steering_pending=lambda: bool(self._steering.items),
            ),
            request_options=request,
            get_steering_messages=self._drain_steering,
            get_follow_up_messages=self._drain_follow_ups,
        )

    async def _drain_steering(self) -> list[AgentMessage]:
        return self._steering.drain()

    async def _drain_follow_ups(self) -> list[AgentMessage]:
        return self._follow_ups.drain()

    async def _process(self, event: Any) -> None:
        state = self.state
        # a delta (the type check first: it comes once per streamed piece)
        if type(event) is MessageUpdateEvent or isinstance(event, MessageStartEvent):
            state.streaming_message = event.message
        elif isinstance(event, MessageEndEvent):
            state.streaming_message = None
            state.messages.append(event.message)
        elif isinstance(event, ToolExecutionStartEvent):
            state.pending_tool_calls = state.pending_tool_calls | {event.tool_call_id}
        elif isinstance(event, ToolExecutionEndEvent):
            state.pending_tool_calls = state.pending_tool_calls - {event.tool_call_id}
        elif isinstance(event, TurnEndEvent):
            message = event.message
            if isinstance(message, AssistantMessage) and message.error_message:
                state.error_message = message.error_message
        signal = self._abort.signal if self._abort else AbortSignal()
        for listener in list(self._listeners):
            result = listener(event, signal)
            if result is not None and inspect.isawaitable(result):
                await result


def _normalize(
    input: str | AgentMessage | list[AgentMessage], images: list[ImageContent] | None
) -> list[AgentMessage]:
    if isinstance(input, list):
        return input
    if not isinstance(input, str):
        return [input]
    content: list[TextContent | ImageContent] = [TextContent(text=input)]
    content.extend(images or [])
    return [UserMessage(content=content)]
