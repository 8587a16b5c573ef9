"""The agent loop with a scripted provider: turns, tools, steering, follow-ups, aborts, errors."""

from __future__ import annotations

import asyncio
from typing import Any

from pydantic import BaseModel

from pi_core import (
    AbortSignal,
    AssistantMessage,
    TextContent,
    Tool,
    ToolResult,
    ToolResultMessage,
    UserMessage,
)
from pi_core.agent.agent import Agent, AgentOptions, AgentState
from pi_core.agent.tool_calls import SKIPPED_TEXT
from pi_core.events.tool_events import ToolCallResult, ToolResultPatch
from pi_core.testing import ScriptedProvider, call, reply, scripted_model


class EchoArgs(BaseModel):
    text: str


class Echo(Tool[EchoArgs]):
    name, label, description, parameters = "echo", "Echo", "Echo text back", EchoArgs

    def __init__(self) -> None:
        self.calls: list[str] = []
        self.on_run: Any = None

    async def execute(
        self, call_id: str, params: EchoArgs, signal: Any, on_update: Any, ctx: Any
    ) -> ToolResult:
        self.calls.append(params.text)
        if on_update is not None:
            on_update(ToolResult.text(f"working on {params.text}"))
        if self.on_run is not None:
            await self.on_run(params, signal)
        if params.text == "explode":
            raise RuntimeError("echo exploded")
        return ToolResult.text(params.text.upper(), details={"len": len(params.text)})


def make_agent(
    provider: ScriptedProvider, *tools: Tool[Any], **options: Any
) -> tuple[Agent, list[Any]]:
    agent = Agent(
        AgentOptions(stream_for=lambda model: provider, **options),
        AgentState(system_prompt="be brief", model=scripted_model(), tools=list(tools)),
    )
    events: list[Any] = []
    agent.subscribe(lambda event, signal: events.append(event))
    return agent, events


def kinds(events: list[Any]) -> list[str]:
    return [e.type for e in events if e.type != "message_update"]


async def test_text_reply_event_order_and_transcript() -> None:
    provider = ScriptedProvider(reply("Hello there, how can I help?"))
    agent, events = make_agent(provider)

    await agent.prompt("hi")

    assert kinds(events) == [
        "agent_start", "turn_start", "message_start", "message_end",
        "message_start", "message_end", "turn_end", "agent_end",
    ]  # fmt: skip
    updates = [e for e in events if e.type == "message_update"]
    assert (
        "".join(
            e.assistant_message_event.delta
            for e in updates
            if hasattr(e.assistant_message_event, "delta")
        )
        == "Hello there, how can I help?"
    )
    assert [m.role for m in agent.state.messages] == ["user", "assistant"]
    final = agent.state.messages[-1]
    assert isinstance(final, AssistantMessage) and final.stop_reason == "stop"
    assert provider.requests[0].system_prompt == "be brief"
    assert not agent.is_streaming


async def test_several_tool_calls_run_and_feed_back() -> None:
    provider = ScriptedProvider(
        reply(tool_calls=[call("echo", id="a", text="one"), call("echo", id="b", text="two")]),
        reply("both done"),
    )
    echo = Echo()
    agent, events = make_agent(provider, echo)

    await agent.prompt("echo twice")

    assert sorted(echo.calls) == ["one", "two"]
    order = kinds(events)
    assert order[:8] == [
        "agent_start", "turn_start", "message_start", "message_end",
        "message_start", "message_end", "tool_execution_start", "tool_execution_start",
    ]  # fmt: skip
    # the two tools run together: each one's update comes before its own end
    running = [(e.type, e.tool_call_id) for e in events if e.type.startswith("tool_execution")][2:]
    assert sorted(running) == sorted(
        [("tool_execution_update", "a"), ("tool_execution_end", "a"),
         ("tool_execution_update", "b"), ("tool_execution_end", "b")]
    )  # fmt: skip
    for call_id in "ab":
        mine = [kind for kind, cid in running if cid == call_id]
        assert mine == ["tool_execution_update", "tool_execution_end"]
    assert order[12:] == [
        "message_start", "message_end", "message_start", "message_end",
        "turn_end", "turn_start", "message_start", "message_end", "turn_end", "agent_end",
    ]  # fmt: skip
    results = [m for m in agent.state.messages if isinstance(m, ToolResultMessage)]
    assert [(r.tool_call_id, r.content[0].text, r.is_error) for r in results] == [
        ("a", "ONE", False),
        ("b", "TWO", False),
    ]
    second_request = provider.requests[1]
    assert [m.role for m in second_request.messages] == [
        "user",
        "assistant",
        "toolResult",
        "toolResult",
    ]
    assert provider.requests[0].tools[0].name == "echo"
    assert provider.requests[0].tools[0].parameters["required"] == ["text"]


async def test_a_tool_that_raises_gives_the_llm_an_error_result() -> None:
    provider = ScriptedProvider(reply(tool_calls=[call("echo", text="explode")]), reply("sorry"))
    agent, _ = make_agent(provider, Echo())

    await agent.prompt("go")

    result = next(m for m in agent.state.messages if isinstance(m, ToolResultMessage))
    assert result.is_error and result.content[0].text == "echo exploded"
    assert agent.state.messages[-1].role == "assistant"


async def test_invalid_arguments_and_unknown_tools_are_error_results() -> None:
    provider = ScriptedProvider(
        reply(tool_calls=[call("echo", wrong=1), call("nope", x=1)]), reply("ok")
    )
    echo = Echo()
    agent, _ = make_agent(provider, echo)

    await agent.prompt("go")

    first, second = [m for m in agent.state.messages if isinstance(m, ToolResultMessage)]
    assert first.is_error and first.content[0].text.startswith('Validation failed for tool "echo"')
    assert second.is_error and second.content[0].text == "Tool nope not found"
    assert echo.calls == []


async def test_before_tool_call_can_block() -> None:
    async def gate(tool_call: Any, params: Any, signal: AbortSignal) -> ToolCallResult:
        return ToolCallResult(block=True, reason="not today")

    provider = ScriptedProvider(reply(tool_calls=[call("echo", text="x")]), reply("fine"))
    echo = Echo()
    agent, _ = make_agent(provider, echo, before_tool_call=gate)

    await agent.prompt("go")

    result = next(m for m in agent.state.messages if isinstance(m, ToolResultMessage))
    assert result.is_error and result.content[0].text == "not today" and echo.calls == []


async def run_with_patch(patch: ToolResultPatch) -> ToolResultMessage:
    """One echo call whose result passes through `after_tool_call` returning `patch`."""

    async def after(
        tool_call: Any, params: Any, result: ToolResult, is_error: bool, signal: AbortSignal
    ) -> ToolResultPatch:
        return patch

    provider = ScriptedProvider(reply(tool_calls=[call("echo", text="hi")]), reply("fine"))
    agent, _ = make_agent(provider, Echo(), after_tool_call=after)
    await agent.prompt("go")
    return next(m for m in agent.state.messages if isinstance(m, ToolResultMessage))


async def test_after_tool_call_patches_with_the_plugins_patch_type() -> None:
    """The loop takes the `ToolResultPatch` plugins return: a field left unset stays as it was."""
    kept = await run_with_patch(ToolResultPatch(content=[TextContent(text="patched")]))
    assert kept.content[0].text == "patched" and kept.details == {"len": 2}
    assert kept.is_error is False

    cleared = await run_with_patch(ToolResultPatch(details=None, is_error=True))
    assert cleared.content[0].text == "HI" and cleared.details is None and cleared.is_error


async def test_steering_mid_tools_skips_the_remaining_calls() -> None:
    provider = ScriptedProvider(
        reply(
            tool_calls=[
                call("echo", id="1", text="a"),
                call("echo", id="2", text="b"),
                call("echo", id="3", text="c"),
            ]
        ),
        reply("changing course"),
    )
    echo = Echo()
    agent, events = make_agent(provider, echo, tool_execution="sequential")

    async def steer_once(params: EchoArgs, signal: Any) -> None:
        if params.text == "a":
            agent.steer(UserMessage(content="stop, do something else"))

    echo.on_run = steer_once
    await agent.prompt("go")

    assert echo.calls == ["a"]
    results = [m for m in agent.state.messages if isinstance(m, ToolResultMessage)]
    assert [(r.tool_call_id, r.is_error) for r in results] == [
        ("1", False),
        ("2", True),
        ("3", True),
    ]
    assert results[1].content[0].text == SKIPPED_TEXT
    roles = [m.role for m in provider.requests[1].messages]
    assert roles == ["user", "assistant", "toolResult", "toolResult", "toolResult", "user"]
    assert provider.requests[1].messages[-1].content == "stop, do something else"
    assert kinds(events).count("turn_start") == 2


async def test_follow_ups_run_when_the_agent_would_stop() -> None:
    first = reply("first", chunk=2, pause_after=1)
    provider = ScriptedProvider(first, reply("second"), reply("third"))
    agent, events = make_agent(provider)

    task = asyncio.create_task(agent.prompt("start"))
    await first.paused.wait()  # the first answer is mid-stream
    agent.follow_up(UserMessage(content="and then?"))
    agent.follow_up(UserMessage(content="and finally?"))
    first.resume()
    await task

    texts = [m.content[0].text for m in agent.state.messages if isinstance(m, AssistantMessage)]
    assert texts == ["first", "second", "third"]  # one-at-a-time: one follow-up per turn
    users = [m.content for m in agent.state.messages if isinstance(m, UserMessage)]
    assert users[1:] == ["and then?", "and finally?"]
    assert kinds(events).count("agent_end") == 1


async def test_all_mode_delivers_queued_messages_together() -> None:
    first = reply("first", chunk=2, pause_after=1)
    provider = ScriptedProvider(first, reply("second"))
    agent, _ = make_agent(provider, follow_up_mode="all")
    task = asyncio.create_task(agent.prompt("start"))
    await first.paused.wait()
    agent.follow_up(UserMessage(content="x"))
    agent.follow_up(UserMessage(content="y"))
    first.resume()
    await task
    assert [m.role for m in provider.requests[1].messages][-2:] == ["user", "user"]
    assert len(provider.requests) == 2


async def test_the_provider_stream_is_closed_as_soon_as_its_result_arrives() -> None:
    provider = ScriptedProvider(reply("done"))
    order: list[str] = []

    async def stream(*args: Any) -> Any:
        try:
            async for event in provider(*args):
                yield event
            order.append("drained")  # never: the loop stops reading at the final event
        finally:
            order.append("closed")

    agent = Agent(
        AgentOptions(stream_for=lambda model: stream),
        AgentState(system_prompt="be brief", model=scripted_model()),
    )
    agent.subscribe(lambda event, signal: order.append(event.type))
    await agent.prompt("hi")

    # closed by the loop before message_end, not later by the garbage collector's finaliser
    assistant_end = len(order) - 1 - order[::-1].index("message_end")
    assert order.index("closed") < assistant_end
    assert "drained" not in order


async def test_abort_during_a_stream_keeps_the_partial_message() -> None:
    answer = reply("a long answer that keeps going " * 20, chunk=4, pause_after=3)
    provider = ScriptedProvider(answer)
    agent, events = make_agent(provider)

    task = asyncio.create_task(agent.prompt("talk"))
    await answer.paused.wait()  # three deltas in, the stream holds until aborted
    agent.abort()
    await asyncio.wait_for(task, 30)

    final = agent.state.messages[-1]
    assert isinstance(final, AssistantMessage) and final.stop_reason == "aborted"
    assert final.content and 0 < len(final.content[0].text) < len(
        "a long answer that keeps going " * 20
    )
    assert kinds(events)[-2:] == ["turn_end", "agent_end"]
    assert agent.state.messages[0].role == "user"


async def test_abort_during_a_tool_signals_the_tool() -> None:
    provider = ScriptedProvider(reply(tool_calls=[call("echo", text="wait")]), reply("unreached"))
    echo = Echo()
    seen: list[bool] = []
    started = asyncio.Event()

    async def wait_for_abort(params: EchoArgs, signal: AbortSignal) -> None:
        started.set()
        await asyncio.wait_for(signal.wait(), 30)
        seen.append(signal.aborted)
        raise RuntimeError("cancelled by user")

    echo.on_run = wait_for_abort
    agent, _ = make_agent(provider, echo)
    task = asyncio.create_task(agent.prompt("go"))
    await started.wait()  # the tool is running
    agent.abort()
    await asyncio.wait_for(task, 30)

    assert seen == [True]
    result = next(m for m in agent.state.messages if isinstance(m, ToolResultMessage))
    assert result.is_error
    final = agent.state.messages[-1]
    assert isinstance(final, AssistantMessage) and final.stop_reason == "aborted"


async def test_error_mid_stream_keeps_partial_text_and_the_user_message() -> None:
    provider = ScriptedProvider(reply("partial answ", error="500 Internal server error"))
    agent, events = make_agent(provider)

    await agent.prompt("question")

    user, assistant = agent.state.messages
    assert isinstance(user, UserMessage) and user.content[0].text == "question"  # type: ignore[index,union-attr]
    assert isinstance(assistant, AssistantMessage)
    assert (
        assistant.stop_reason == "error" and assistant.error_message == "500 Internal server error"
    )
    assert assistant.content == [TextContent(text="partial answ")]
    assert agent.state.error_message == "500 Internal server error"
    assert kinds(events)[-1] == "agent_end"


async def test_prompt_while_busy_is_refused_clearly() -> None:
    import pytest

    from pi_core.agent.agent import AgentBusyError

    slow = reply("slow", chunk=2, pause_after=1)
    provider = ScriptedProvider(slow)
    agent, _ = make_agent(provider)
    task = asyncio.create_task(agent.prompt("one"))
    await slow.paused.wait()
    with pytest.raises(AgentBusyError, match="steer"):
        await agent.prompt("two")
    slow.resume()
    await task


async def test_a_crashing_stream_becomes_an_error_message() -> None:
    async def broken(model: Any, context: Any, options: Any) -> Any:
        raise ConnectionResetError("connection reset by peer")
        yield  # pragma: no cover

    agent = Agent(
        AgentOptions(stream_for=lambda model: broken),
        AgentState(model=scripted_model()),
    )
    await agent.prompt("hi")
    final = agent.state.messages[-1]
    assert isinstance(final, AssistantMessage) and final.stop_reason == "error"
    assert "connection reset" in (final.error_message or "")
