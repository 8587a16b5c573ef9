"""Running the tool calls of one assistant message: validate, gate, execute, patch, report."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from pi_core.abort import AbortSignal
from pi_core.events.agent import (
    MessageEndEvent,
    MessageStartEvent,
    ToolExecutionEndEvent,
    ToolExecutionStartEvent,
    ToolExecutionUpdateEvent,
)
from pi_core.events.tool_events import ToolCallResult, ToolResultPatch
from pi_core.messages.content import TextContent, ToolCall
from pi_core.messages.llm import AssistantMessage, ToolResultMessage
from pi_core.tools.tool import Tool, ToolArgumentsError, ToolResult

Emit = Callable[[Any], Awaitable[None]]
ToolExecution = Literal["parallel", "sequential"]
SKIPPED_TEXT = "Skipped due to queued user message."


BeforeToolCall = Callable[[ToolCall, Any, AbortSignal], Awaitable[ToolCallResult | None]]
"""The gate before a call runs: a `ToolCallResult` with `block=True` stops it with its reason."""
AfterToolCall = Callable[
    [ToolCall, Any, ToolResult, bool, AbortSignal], Awaitable[ToolResultPatch | None]
]
"""What runs after a call: a `ToolResultPatch` replaces the fields it sets (`details` when set
explicitly, even to None; `content` and `is_error` when not None)."""


@dataclass(kw_only=True)
class ToolCallOptions:
    """How an agent's tool calls run: the gates around them, the context tools receive, and
    whether they run in parallel or in sequence. `AgentOptions` is one; the runner gets it as is."""

    before_tool_call: BeforeToolCall | None = None
    after_tool_call: AfterToolCall | None = None
    tool_context: Any = None
    tool_execution: ToolExecution = "parallel"


@dataclass
class ToolRunConfig:
    """One run's tool calls: the tools, the agent's tool-call options, and the steering check."""

    tools: list[Tool[Any]]
    options: ToolCallOptions = field(default_factory=ToolCallOptions)
    steering_pending: Callable[[], bool] | None = None


@dataclass
class _Prepared:
    call: ToolCall
    tool: Tool[Any] | None = None
    params: Any = None
    result: ToolResult | None = None
    is_error: bool = False


def _error(text: str) -> ToolResult:
    return ToolResult(content=[TextContent(text=text)], details={})


async def _prepare(call: ToolCall, config: ToolRunConfig, signal: AbortSignal) -> _Prepared:
    tool = next((t for t in config.tools if t.name == call.name), None)
    if tool is None:
        return _Prepared(call, result=_error(f"Tool {call.name} not found"), is_error=True)
    try:
        params = tool.validate_arguments(call.arguments)
        before_tool_call = config.options.before_tool_call
        if before_tool_call is not None:
            gate = await before_tool_call(call, params, signal)
            if gate is not None and gate.block:
                reason = gate.reason or "Tool execution was blocked"
                return _Prepared(call, result=_error(reason), is_error=True)
    except ToolArgumentsError as error:
        return _Prepared(call, result=_error(str(error)), is_error=True)
    except Exception as error:
        return _Prepared(call, result=_error(str(error) or type(error).__name__), is_error=True)
    return _Prepared(call, tool=tool, params=params)


async def _execute(
    prepared: _Prepared, config: ToolRunConfig, signal: AbortSignal, emit: Emit
) -> None:
    assert prepared.tool is not None
    call = prepared.call
    updates: list[asyncio.Task[None]] = []

    def on_update(partial: ToolResult) -> None:
        event = ToolExecutionUpdateEvent(
            tool_call_id=call.id, tool_name=call.name, args=call.arguments, partial_result=partial
        )
        updates.append(asyncio.ensure_future(emit(event)))

    try:
        result = await prepared.tool.execute(
            call.id, prepared.params, signal, on_update, config.options.tool_context
        )
        if not isinstance(result, ToolResult):
            raise TypeError(
                f"Tool {call.name!r} returned {type(result).__name__}, expected ToolResult"
            )
        prepared.result, prepared.is_error = result, False
    except asyncio.CancelledError:
        raise
    except Exception as error:
        prepared.result, prepared.is_error = _error(str(error) or type(error).__name__), True
    if updates:
        await asyncio.gather(*updates)
    after_tool_call = config.options.after_tool_call
    if after_tool_call is not None:
        try:
            patch = await after_tool_call(
                call, prepared.params, prepared.result, prepared.is_error, signal
            )
        except Exception as error:
            prepared.result, prepared.is_error = _error(str(error)), True
            return
        if patch is not None:
            result = prepared.result
            prepared.result = ToolResult(
                content=patch.content if patch.content is not None else result.content,
                details=patch.details if "details" in patch.model_fields_set else result.details,
            )
            if patch.is_error is not None:
                prepared.is_error = patch.is_error


async def _finish(prepared: _Prepared, emit: Emit) -> ToolResultMessage:
    assert prepared.result is not None
    call = prepared.call
    await emit(
        ToolExecutionEndEvent(
            tool_call_id=call.id,
            tool_name=call.name,
            result=prepared.result,
            is_error=prepared.is_error,
        )
    )
    return ToolResultMessage(
        tool_call_id=call.id,
        tool_name=call.name,
        content=prepared.result.content,
        details=prepared.result.details,
        is_error=prepared.is_error,
    )


async def _emit_result_message(message: ToolResultMessage, emit: Emit) -> None:
    await emit(MessageStartEvent(message=message))
    await emit(MessageEndEvent(message=message))


async def run_tool_calls(
    assistant: AssistantMessage, config: ToolRunConfig, signal: AbortSignal, emit: Emit
) -> list[ToolResultMessage]:
    """Run every tool call of `assistant` and return their result messages, in call order."""
    calls = [block for block in assistant.content if isinstance(block, ToolCall)]
    if config.options.tool_execution == "sequential":
        return await _sequential(calls, config, signal, emit)
    return await _parallel(calls, config, signal, emit)


async def _start(call: ToolCall, emit: Emit) -> None:
    await emit(
        ToolExecutionStartEvent(tool_call_id=call.id, tool_name=call.name, args=call.arguments)
    )


async def run_tool_call(
    call: ToolCall, config: ToolRunConfig, signal: AbortSignal, emit: Emit
) -> ToolResultMessage:
    """Run one tool call: start, validate, gate, execute, patch, finish, and report its message."""
    await _start(call, emit)
    prepared = await _prepare(call, config, signal)
    if prepared.result is None:
        await _execute(prepared, config, signal, emit)
    message = await _finish(prepared, emit)
    await _emit_result_message(message, emit)
    return message


async def _sequential(
    calls: list[ToolCall], config: ToolRunConfig, signal: AbortSignal, emit: Emit
) -> list[ToolResultMessage]:
    messages: list[ToolResultMessage] = []
    for index, call in enumerate(calls):
        messages.append(await run_tool_call(call, config, signal, emit))
        if config.steering_pending is not None and config.steering_pending():
            for skipped_call in calls[index + 1 :]:
                await _start(skipped_call, emit)
                skipped = _Prepared(skipped_call, result=_error(SKIPPED_TEXT), is_error=True)
                skipped_message = await _finish(skipped, emit)
                await _emit_result_message(skipped_message, emit)
                messages.append(skipped_message)
            break
    return messages


async def _parallel(
    calls: list[ToolCall], config: ToolRunConfig, signal: AbortSignal, emit: Emit
) -> list[ToolResultMessage]:
    """Prepare each call in order (emitting its start), then run the runnable ones together."""
    if len(calls) == 1:  # nothing to run alongside: no task to create and gather
        return await _sequential(calls, config, signal, emit)
    results: list[ToolResultMessage | None] = [None] * len(calls)

    async def run(index: int, prepared: _Prepared) -> None:
        await _execute(prepared, config, signal, emit)
        results[index] = await _finish(prepared, emit)

    running: list[asyncio.Task[None]] = []
    for index, call in enumerate(calls):
        await _start(call, emit)
        prepared = await _prepare(call, config, signal)
        if prepared.result is not None:
            results[index] = await _finish(prepared, emit)
        else:
            running.append(asyncio.ensure_future(run(index, prepared)))
    await asyncio.gather(*running)
    messages = [message for message in results if message is not None]
    for message in messages:
        await _emit_result_message(message, emit)
    return messages
