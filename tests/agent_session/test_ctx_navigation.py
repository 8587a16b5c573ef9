"""A command's `ctx` moves the session through the session's own Navigator, nothing between."""

from __future__ import annotations

from tests.agent_session.conftest import Harness


async def test_a_command_context_navigates_with_the_sessions_navigator(harness: Harness) -> None:
    session = await harness.session(persist=False)
    runtime = session.plugins.runtime
    assert runtime.navigation is session.navigation

    first = session.session_id
    assert await session.plugins.command_ctx.new_session() == {"cancelled": False}
    assert session.session_id != first
