"""Each request carries the session's id as it is when the request is made (pi's `sessionId`)."""

from __future__ import annotations

from pi_core.agent.agent import Agent, AgentOptions, AgentState
from pi_core.testing import ScriptedProvider, reply, scripted_model


async def test_each_request_gets_the_current_session_id() -> None:
    provider = ScriptedProvider(reply("one"), reply("two"))
    current = {"id": "session-a"}
    agent = Agent(
        AgentOptions(stream_for=lambda model: provider, session_id=lambda: current["id"]),
        AgentState(model=scripted_model()),
    )
    await agent.prompt("first")
    current["id"] = "session-b"  # a new session: the agent stays, the id follows
    await agent.prompt("second")
    assert [options.session_id for options in provider.options] == ["session-a", "session-b"]
    assert agent.options.stream_options.session_id is None  # the base options are not changed
