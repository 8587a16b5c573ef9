"""A subscription token that falls due inside a tool loop is refreshed off the event loop before
the next provider request: the loop goes on while the token endpoint holds its answer, and the
request after it carries the new token."""

from __future__ import annotations

import asyncio
import threading

from pi_core.ai.auth import AuthStorage
from pi_core.ai.oauth import LoginCallbacks, LoginProvider, OAuthCredentials
from pi_core.ai.oauth.credentials import now_ms
from pi_core.ai.oauth.token_http import request_json
from pi_core.testing import FakeAuthServer, chat_stream
from pi_core.tools.decorator import tool
from tests.agent_session.conftest import Harness


class FakeLogin(LoginProvider):
    """The `fake` provider's login, refreshing at the fake authorisation server."""

    id = "fake"
    name = "Fake subscription"

    def __init__(self, origin: str) -> None:
        self.origin = origin

    async def login(self, callbacks: LoginCallbacks) -> OAuthCredentials:
        raise NotImplementedError

    def refresh(self, credentials: OAuthCredentials) -> OAuthCredentials:
        body = {"grant_type": "refresh_token", "refresh_token": credentials["refresh"]}
        answer = request_json("POST", f"{self.origin}/v1/oauth/token", json_body=body)
        return {"refresh": answer["refresh_token"], "access": answer["access_token"],
                "expires": now_ms() + answer["expires_in"] * 1000}  # fmt: skip


async def test_a_refresh_due_mid_turn_runs_off_the_event_loop(harness: Harness) -> None:
    gate = threading.Event()
    with FakeAuthServer(refresh_gate=gate) as fake:
        fake.refresh_tokens.add("refresh-0")
        auth = AuthStorage(harness.agent_dir / "auth.json")
        login = {"refresh": "refresh-0", "access": "first-access", "expires": now_ms() + 3_600_000}
        auth.set_oauth("fake", login)
        auth.add_login_provider(FakeLogin(fake.origin))

        @tool
        def expire() -> str:
            """Let the stored token expire (as time would)."""
            auth.set_oauth("fake", {**login, "expires": now_ms() - 1})
            return "expired"

        harness.server.queue(chat_stream(tool_calls=[("expire", {})]), chat_stream("Done."))
        session = await harness.session(auth=auth, custom_tools=[expire], persist=False)
        turn = asyncio.create_task(session.prompt("go"))
        # this coroutine runs again only if the loop is free while the endpoint holds its answer
        await asyncio.to_thread(fake.refresh_seen.wait, 30)
        held = not fake.refresh_answered.is_set()
        gate.set()
        await asyncio.wait_for(turn, 30)
    assert held, "the refresh blocked the event loop"
    first, second = harness.server.requests
    assert first.headers["authorization"] == "Bearer first-access"
    assert second.headers["authorization"] == "Bearer sk-ant-oat01-access-1"


async def test_a_refresh_due_at_compaction_runs_off_the_event_loop(harness: Harness) -> None:
    gate = threading.Event()
    with FakeAuthServer(refresh_gate=gate) as fake:
        fake.refresh_tokens.add("refresh-0")
        auth = AuthStorage(harness.agent_dir / "auth.json")
        login = {"refresh": "refresh-0", "access": "first-access", "expires": now_ms() + 3_600_000}
        auth.set_oauth("fake", login)
        auth.add_login_provider(FakeLogin(fake.origin))
        harness.server.queue(chat_stream("Hi."), chat_stream("The summary."))
        session = await harness.session(auth=auth, persist=False)
        await session.prompt("hello")
        auth.set_oauth("fake", {**login, "expires": now_ms() - 1})
        compaction = asyncio.create_task(session.compact())
        await asyncio.to_thread(fake.refresh_seen.wait, 30)
        held = not fake.refresh_answered.is_set()
        gate.set()
        await asyncio.wait_for(compaction, 30)
    assert held, "the refresh blocked the event loop"
    summary_request = harness.server.requests[-1]
    assert summary_request.headers["authorization"] == "Bearer sk-ant-oat01-access-1"
