"""Claude Pro/Max login against a loopback fake authorisation server: the browser's redirect to
the callback server, a pasted redirect, the token stored in pi's format, refresh and its failure."""

from __future__ import annotations

import asyncio
import json
import socket
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest
from pi_plugin_anthropic.login import CLIENT_ID, SCOPES, AnthropicLogin

from pi_core.ai.auth import AuthStorage
from pi_core.ai.oauth import LoginCallbacks, LoginPrompt, OAuthRefreshError, now_ms
from pi_core.testing import FakeAuthServer


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> FakeAuthServer:
    with FakeAuthServer() as server:
        monkeypatch.setenv("PI_TEST_OAUTH_ORIGIN", server.origin)
        monkeypatch.setenv("PI_TEST_OAUTH_CALLBACK_PORT", str(free_port()))
        yield server


async def never_asked(question: LoginPrompt) -> str:
    raise AssertionError(f"unexpected prompt: {question.message}")


async def test_login_through_the_callback_server_is_stored_as_pi_stores_it(
    fake: FakeAuthServer, tmp_path: Path
) -> None:
    urls: list[str] = []
    callbacks = LoginCallbacks(on_auth=lambda url, text: urls.append(url), on_prompt=never_asked)
    login = asyncio.ensure_future(AnthropicLogin().login(callbacks))
    while not urls:
        await asyncio.sleep(0.01)
    query = {k: v[0] for k, v in parse_qs(urlsplit(urls[0]).query).items()}
    assert urls[0].startswith(f"{fake.origin}/oauth/authorize?")
    assert query["client_id"] == CLIENT_ID and query["scope"] == SCOPES
    assert query["code"] == "true" and query["state"]  # the state is the verifier, as in pi
    redirect = fake.authorize(urls[0])
    answer = await asyncio.to_thread(httpx.get, redirect)
    assert answer.status_code == 200 and "completed" in answer.text
    credentials = await login
    exchange = fake.requests[-1]
    assert (exchange.path, exchange.body["grant_type"]) == ("/v1/oauth/token", "authorization_code")
    assert exchange.body["state"] == query["state"] == exchange.body["code_verifier"]
    assert credentials["access"] == "sk-ant-oat01-access-1"
    # pi subtracts five minutes from the lifetime it is given
    lifetime = credentials["expires"] - now_ms()
    assert 3600_000 - 5 * 60_000 - 5_000 < lifetime <= 3600_000 - 5 * 60_000
    path = tmp_path / "auth.json"
    AuthStorage(path).set_oauth("anthropic", credentials)
    assert list(json.loads(path.read_text())["anthropic"]) == [
        "type", "refresh", "access", "expires"
    ]  # fmt: skip
    assert path.stat().st_mode & 0o777 == 0o600


async def test_login_with_a_pasted_redirect_url(fake: FakeAuthServer) -> None:
    urls: list[str] = []
    pasted: asyncio.Future[str] = asyncio.get_running_loop().create_future()

    def on_auth(url: str, text: str | None) -> None:
        urls.append(url)
        pasted.set_result(fake.authorize(url))  # the browser ran elsewhere; its URL is pasted

    callbacks = LoginCallbacks(on_auth, never_asked, on_manual_code_input=lambda: pasted)
    credentials = await AnthropicLogin().login(callbacks)
    assert credentials["refresh"] == "refresh-1"
    assert [r.path for r in fake.requests] == ["/v1/oauth/token"]


def test_refresh_asks_the_token_endpoint_with_the_refresh_token(fake: FakeAuthServer) -> None:
    fake.refresh_tokens.add("r0")
    fresh = AnthropicLogin().refresh({"refresh": "r0", "access": "a0", "expires": 0})
    assert fake.requests[-1].body == {
        "grant_type": "refresh_token", "client_id": CLIENT_ID, "refresh_token": "r0"
    }  # fmt: skip
    assert (fresh["access"], fresh["refresh"]) == ("sk-ant-oat01-access-1", "refresh-1")


def test_a_refused_refresh_leaves_the_login_in_place(fake: FakeAuthServer, tmp_path: Path) -> None:
    path = tmp_path / "auth.json"
    record = {"type": "oauth", "refresh": "unknown", "access": "a0", "expires": now_ms() - 1}
    path.write_text(json.dumps({"anthropic": record}))
    auth = AuthStorage(path)
    auth.add_login_provider(AnthropicLogin())
    with pytest.raises(OAuthRefreshError, match="/login"):
        auth.stored_key("anthropic")
    assert json.loads(path.read_text()) == {"anthropic": record}
