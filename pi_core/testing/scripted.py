"""An in-process provider playing scripted responses, for unit tests of the loop and session.

A race test pauses a response instead of slowing it: `pause_after=N` streams N deltas, sets
`paused` and waits for `resume()` (or the abort signal), so the agent is known to be streaming.
"""

from __future__ import annotations

import asyncio
import json
import uuid
from collections import deque
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

from pi_core.ai.builder import AssistantMessageBuilder
from pi_core.ai.model import Model
from pi_core.ai.protocol import LLMContext, StreamOptions
from pi_core.messages.llm import StopReason
from pi_core.messages.stream import AssistantMessageEvent


@dataclass
class ScriptedCall:
    """A tool call the scripted model makes."""

    name: str
    arguments: dict[str, Any] = field(default_factory=dict)
    id: str = field(default_factory=lambda: f"call_{uuid.uuid4().hex[:8]}")


@dataclass
class ScriptedResponse:
    """One scripted answer: thinking, text, tool calls, or an error, streamed in pieces."""

    text: str = ""
    thinking: str = ""
    tool_calls: list[ScriptedCall] = field(default_factory=list)
    error: str | None = None  # fail after streaming what came before
    stop_reason: StopReason | None = None
    chunk: int = 8  # characters per delta
    delay: float = 0.0  # seconds between deltas (a slow model; races use pause_after instead)
    usage: tuple[int, int] = (10, 5)  # input, output tokens
    pause_after: int | None = None  # deltas streamed before waiting for resume() or an abort
    paused: asyncio.Event = field(default_factory=asyncio.Event, init=False, repr=False)
    _resumed: asyncio.Event = field(default_factory=asyncio.Event, init=False, repr=False)

    def resume(self) -> None:
        """Let a paused response stream the rest."""
        self._resumed.set()


def reply(text: str = "", **kwargs: Any) -> ScriptedResponse:
    """Shorthand for a scripted response."""
    return ScriptedResponse(text=text, **kwargs)


def call(name: str, id: str | None = None, **arguments: Any) -> ScriptedCall:
    """Shorthand for a scripted tool call."""
    return ScriptedCall(name, arguments, id or f"call_{uuid.uuid4().hex[:8]}")


def scripted_model(provider: str = "scripted", model_id: str = "scripted-model") -> Model:
    """A model that `ScriptedProvider` streams."""
    return Model(id=model_id, name=model_id, api="scripted", provider=provider)


class ScriptedProvider:
    """A stream function that answers each request with the next scripted response."""

    def __init__(self, *responses: ScriptedResponse) -> None:
        self.responses: deque[ScriptedResponse] = deque(responses)
        self.requests: list[LLMContext] = []
        self.options: list[StreamOptions] = []

    def queue(self, *responses: ScriptedResponse) -> None:
        """Add responses to play."""
        self.responses.extend(responses)

    async def __call__(
        self, model: Model, context: LLMContext, options: StreamOptions
    ) -> AsyncIterator[AssistantMessageEvent]:
        """Play the next response as stream events, honouring the abort signal."""
        self.requests.append(context)
        self.options.append(options)
        builder = AssistantMessageBuilder(model)
        response = (
            self.responses.popleft() if self.responses else reply(error="no scripted response")
        )
        signal = options.signal
        deltas = 0

        async def before_delta() -> None:
            nonlocal deltas
            if deltas == response.pause_after:
                await self._hold(response, signal)
            deltas += 1
            await self._pause(response.delay, signal)

        yield builder.start()
        try:
            if response.thinking:
                index, thinking_start = builder.thinking_start()
                yield thinking_start
                for piece in _pieces(response.thinking, response.chunk):
                    await before_delta()
                    yield builder.thinking_delta(index, piece)
                yield builder.thinking_end(index, "scripted-signature")
            if response.text:
                index, text_start = builder.text_start()
                yield text_start
                for piece in _pieces(response.text, response.chunk):
                    await before_delta()
                    yield builder.text_delta(index, piece)
                yield builder.text_end(index)
            for scripted in response.tool_calls:
                index, call_start = builder.tool_call_start(scripted.id, scripted.name)
                yield call_start
                await before_delta()
                yield builder.tool_call_delta(index, json.dumps(scripted.arguments))
                yield builder.tool_call_end(index)
        except asyncio.CancelledError:
            yield builder.error("Operation aborted", aborted=True)
            return
        builder.set_usage(input=response.usage[0], output=response.usage[1])
        if response.error is not None:
            yield builder.error(response.error)
            return
        yield builder.done(response.stop_reason)

    @staticmethod
    async def _hold(response: ScriptedResponse, signal: Any) -> None:
        """Wait at the pause point until the test resumes the response or the run is aborted."""
        response.paused.set()
        waiters = {asyncio.ensure_future(response._resumed.wait())}
        if signal is not None:
            waiters.add(asyncio.ensure_future(signal.wait()))
        try:
            await asyncio.wait(waiters, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for waiter in waiters:
                waiter.cancel()
        if signal is not None and signal.aborted:
            raise asyncio.CancelledError

    @staticmethod
    async def _pause(delay: float, signal: Any) -> None:
        if signal is not None and signal.aborted:
            raise asyncio.CancelledError
        if delay:
            if signal is None:
                await asyncio.sleep(delay)
                return
            waiter = asyncio.ensure_future(signal.wait())
            done, _ = await asyncio.wait({waiter}, timeout=delay)
            if not done:
                waiter.cancel()
            if signal.aborted:
                raise asyncio.CancelledError


def _pieces(text: str, size: int) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), max(size, 1))]
