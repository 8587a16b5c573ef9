"""Tools a plugin adds and removes while the session runs (`ctx.register_tool`), as MCP does."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import BaseModel

from pi_core import ToolResult, define_tool
from pi_core.testing import chat_stream
from tests.agent_session.conftest import Harness, plugin


class Query(BaseModel):
    q: str


async def _lookup(call_id: str, params: Query, *rest: Any) -> ToolResult:
    return ToolResult.text(f"found {params.q}")


LOOKUP = define_tool(
    name="lookup", description="Look a thing up", parameters=Query, execute=_lookup
)


def tool_names(body: dict[str, Any]) -> list[str]:
    return [tool["function"]["name"] for tool in body["tools"]]


async def test_a_tool_registered_at_session_start_is_offered_and_runs(harness: Harness) -> None:
    def session_start(ctx: Any) -> None:
        ctx.register_tool(LOOKUP)

    async def drop(args: str, ctx: Any) -> None:
        ctx.unregister_tool("lookup")

    harness.server.queue(
        chat_stream(tool_calls=[("lookup", {"q": "pi"})]), chat_stream("done"), chat_stream("b")
    )
    session = await harness.session(
        plugin(
            session_start=session_start, register_commands=lambda register: register("drop", drop)
        )
    )
    assert "lookup" in session.get_active_tool_names()
    await session.prompt("find pi")
    assert "lookup" in tool_names(harness.request(0))
    assert "- lookup" not in harness.request(0)["messages"][0]["content"]  # no prompt snippet
    tool_message = [m for m in harness.request(1)["messages"] if m["role"] == "tool"]
    assert "found pi" in str(tool_message[0]["content"])

    await session.prompt("/drop")
    await session.prompt("again")
    assert "lookup" not in tool_names(harness.request(2))
    assert "lookup" not in session.get_active_tool_names()


async def test_a_tool_without_a_parameter_model_is_refused(harness: Harness) -> None:
    class Broken:
        name = "broken"
        description = "no model"
        parameters = dict

        async def execute(self, *args: Any) -> None: ...

    refused: list[str] = []

    def session_start(ctx: Any) -> None:
        with pytest.raises(TypeError, match="parameters must be a pydantic model class") as error:
            ctx.register_tool(Broken())
        refused.append(str(error.value))

    await harness.session(plugin(session_start=session_start))
    assert refused


async def test_a_late_tool_respects_the_tools_allow_list(harness: Harness) -> None:
    def session_start(ctx: Any) -> None:
        ctx.register_tool(LOOKUP)

    limited = await harness.session(plugin(session_start=session_start), tools=["read"])
    assert limited.get_active_tool_names() == ["read"]
    assert "lookup" in [tool["name"] for tool in limited.tools.describe()]
    allowed = await harness.session(plugin(session_start=session_start), tools=["lookup"])
    assert allowed.get_active_tool_names() == ["lookup"]
