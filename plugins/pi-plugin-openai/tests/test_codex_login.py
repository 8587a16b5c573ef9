"""ChatGPT (Codex) login against a loopback fake authorisation server: PKCE, the callback server
on the login's port, the account id read from the token, refresh and a refused refresh."""

from __future__ import annotations

import asyncio
import base64
import json
import socket
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest
from pi_plugin_openai.codex_login import CLIENT_ID, CodexLogin, account_id

from pi_core.ai.auth import AuthStorage
from pi_core.ai.oauth import LoginCallbacks, LoginPrompt, OAuthRefreshError, now_ms
from pi_core.testing import FakeAuthServer


def jwt(n: int) -> str:
    claims = {"https://api.openai.com/auth": {"chatgpt_account_id": f"acct-{n}"}}
    payload = base64.urlsafe_b64encode(json.dumps(claims).encode()).decode().rstrip("=")
    return f"e30.{payload}.sig"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeAuthServer]:
    with FakeAuthServer(access_token=jwt) as server:
        monkeypatch.setenv("PI_TEST_OAUTH_ORIGIN", server.origin)
        monkeypatch.setenv("PI_TEST_OAUTH_CALLBACK_PORT", str(free_port()))
        yield server


async def never_asked(question: LoginPrompt) -> str:
    raise AssertionError(f"unexpected prompt: {question.message}")


def test_the_account_id_is_read_from_the_token() -> None:
    assert account_id(jwt(7)) == "acct-7"
    assert account_id("not-a-jwt") is None


async def test_login_through_the_callback_server(fake: FakeAuthServer, tmp_path: Path) -> None:
    urls: list[str] = []
    callbacks = LoginCallbacks(on_auth=lambda url, text: urls.append(url), on_prompt=never_asked)
    login = asyncio.ensure_future(CodexLogin().login(callbacks))
    while not urls:
        await asyncio.sleep(0.01)
    query = {k: v[0] for k, v in parse_qs(urlsplit(urls[0]).query).items()}
    assert query["client_id"] == CLIENT_ID and query["originator"] == "pi"
    assert query["redirect_uri"].endswith("/auth/callback")
    answer = await asyncio.to_thread(httpx.get, fake.authorize(urls[0]))
    assert answer.status_code == 200
    credentials = await login
    exchange = fake.requests[-1]
    assert exchange.headers["content-type"] == "application/x-www-form-urlencoded"
    assert exchange.body["grant_type"] == "authorization_code"
    assert credentials["accountId"] == "acct-1" and credentials["refresh"] == "refresh-1"
    path = tmp_path / "auth.json"
    AuthStorage(path).set_oauth("openai-codex", credentials)
    stored = json.loads(path.read_text())["openai-codex"]
    assert list(stored) == ["type", "access", "refresh", "expires", "accountId"]


def expired_login(path: Path) -> dict[str, object]:
    record = {"type": "oauth", "access": jwt(0), "refresh": "r0", "expires": now_ms() - 1,
              "accountId": "acct-0"}  # fmt: skip
    path.write_text(json.dumps({"openai-codex": record}))
    return record


def test_an_expired_login_is_refreshed_with_a_new_account_id(
    fake: FakeAuthServer, tmp_path: Path
) -> None:
    fake.refresh_tokens.add("r0")
    path = tmp_path / "auth.json"
    expired_login(path)
    auth = AuthStorage(path)
    auth.add_login_provider(CodexLogin())
    assert auth.stored_key("openai-codex") == jwt(1)
    assert fake.requests[-1].body == {
        "grant_type": "refresh_token", "refresh_token": "r0", "client_id": CLIENT_ID
    }  # fmt: skip
    assert json.loads(path.read_text())["openai-codex"]["accountId"] == "acct-1"


def test_a_refused_refresh_names_login_and_keeps_the_record(
    fake: FakeAuthServer, tmp_path: Path
) -> None:
    fake.refresh_fails = True
    path = tmp_path / "auth.json"
    record = expired_login(path)
    auth = AuthStorage(path)
    auth.add_login_provider(CodexLogin())
    with pytest.raises(OAuthRefreshError, match=r"HTTP 400.*Run /login"):
        auth.stored_key("openai-codex")
    assert json.loads(path.read_text()) == {"openai-codex": record}
