"""The OAuth machinery: PKCE, pasted redirects, the callback server, the device-code poller, the
refresh under pi's lock (one refresh for two processes) and a refresh that fails."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import httpx
import pytest

from pi_core.ai.auth import AuthStorage
from pi_core.ai.oauth import (
    CallbackServer,
    DeviceCode,
    LoginCallbacks,
    LoginPrompt,
    LoginProvider,
    OAuthCredentials,
    OAuthError,
    OAuthRefreshError,
    now_ms,
    parse_authorization_input,
    poll_device_code,
    receive_code,
    request_json,
    s256_challenge,
)
from pi_core.testing import FakeAuthServer


class TokenLogin(LoginProvider):
    """A minimal provider refreshing against the fake's token endpoint."""

    id = "anthropic"
    name = "Test vendor"

    def __init__(self, origin: str) -> None:
        self.origin = origin

    async def login(self, callbacks: LoginCallbacks) -> OAuthCredentials:
        raise NotImplementedError

    def refresh(self, credentials: OAuthCredentials) -> OAuthCredentials:
        body = {"grant_type": "refresh_token", "refresh_token": credentials["refresh"]}
        answer = request_json("POST", f"{self.origin}/v1/oauth/token", json_body=body)
        expires = now_ms() + answer["expires_in"] * 1000
        return {"refresh": answer["refresh_token"], "access": answer["access_token"],
                "expires": expires}  # fmt: skip


def write_auth(path: Path, data: dict[str, Any]) -> None:
    path.write_text(json.dumps(data, indent=2))
    path.chmod(0o600)


def test_pkce_challenge_is_rfc7636_s256() -> None:
    # The RFC 7636 appendix B example.
    verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
    assert s256_challenge(verifier) == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"


@pytest.mark.parametrize(
    ("pasted", "code", "state"),
    [
        ("http://localhost:53692/callback?code=abc&state=xyz", "abc", "xyz"),
        ("  abc#xyz ", "abc", "xyz"),
        ("code=abc&state=xyz", "abc", "xyz"),
        ("abc", "abc", None),
        ("", None, None),
    ],
)
def test_pasted_redirects_are_read_in_every_form_pi_reads(
    pasted: str, code: str | None, state: str | None
) -> None:
    parsed = parse_authorization_input(pasted)
    assert (parsed.code, parsed.state) == (code, state)


async def test_callback_server_takes_the_code_only_with_the_right_state() -> None:
    server = CallbackServer.start(0, "/callback", "s1", "Vendor")
    assert server is not None
    base = f"http://127.0.0.1:{server.port}"
    try:
        wrong = await asyncio.to_thread(httpx.get, f"{base}/callback?code=c&state=evil")
        lost = await asyncio.to_thread(httpx.get, f"{base}/elsewhere?code=c&state=s1")
        good = await asyncio.to_thread(httpx.get, f"{base}/callback?code=c1&state=s1")
        assert (wrong.status_code, lost.status_code, good.status_code) == (400, 404, 200)
        assert "State mismatch" in wrong.text
        assert await server.wait() == "c1"
    finally:
        server.close()


async def test_a_taken_port_falls_back_to_pasting() -> None:
    first = CallbackServer.start(0, "/callback", "s", "Vendor")
    assert first is not None
    try:
        assert CallbackServer.start(first.port, "/callback", "s", "Vendor") is None

        async def prompt(question: LoginPrompt) -> str:
            assert "redirect URL" in question.message
            return "http://localhost/callback?code=pasted&state=s"

        callbacks = LoginCallbacks(on_auth=lambda url, text: None, on_prompt=prompt)
        received = await receive_code(None, callbacks, "s", "http://localhost/callback")
        assert (received.code, received.state) == ("pasted", "s")
    finally:
        first.close()


async def test_a_pasted_redirect_with_another_state_is_refused() -> None:
    server = CallbackServer.start(0, "/callback", "s", "Vendor")

    async def paste() -> str:
        return "code-x#other-state"

    async def prompt(question: LoginPrompt) -> str:
        raise AssertionError("not asked: the paste came first")

    callbacks = LoginCallbacks(lambda url, text: None, prompt, on_manual_code_input=paste)
    try:
        with pytest.raises(OAuthError, match="state mismatch"):
            await receive_code(server, callbacks, "s", "http://localhost/callback")
    finally:
        assert server is not None
        server.close()


async def test_device_code_polling_waits_while_pending_and_slows_down() -> None:
    answers = [{"error": "authorization_pending"}, {"error": "slow_down", "interval": 7},
               {"access_token": "tok"}]  # fmt: skip
    waits: list[float] = []

    async def poll() -> dict[str, Any]:
        return answers.pop(0)

    async def sleep(seconds: float) -> None:
        waits.append(seconds)

    device = DeviceCode("d", "U", "https://example.com/device", 5, 900)
    assert await poll_device_code(device, poll, sleep) == "tok"
    assert waits == [pytest.approx(6.0), pytest.approx(6.0), pytest.approx(9.8)]


async def test_device_code_polling_stops_on_a_denial() -> None:
    async def poll() -> dict[str, Any]:
        return {"error": "access_denied", "error_description": "the user said no"}

    async def sleep(seconds: float) -> None:
        return None

    device = DeviceCode("d", "U", "https://example.com/device", 1, 900)
    with pytest.raises(OAuthError, match="access_denied: the user said no"):
        await poll_device_code(device, poll, sleep)


def test_an_expired_token_is_refreshed_and_written_back_under_pis_lock(tmp_path: Path) -> None:
    path = tmp_path / "auth.json"
    with FakeAuthServer() as fake:
        fake.refresh_tokens.add("old-refresh")
        write_auth(path, {
            "anthropic": {"type": "oauth", "refresh": "old-refresh", "access": "old",
                          "expires": now_ms() - 1},
            "openai": {"type": "api_key", "key": "sk-kept"},
        })  # fmt: skip
        auth = AuthStorage(path)
        auth.add_login_provider(TokenLogin(fake.origin))
        assert auth.stored_key("anthropic") == "sk-ant-oat01-access-1"
        assert auth.stored_key("anthropic") == "sk-ant-oat01-access-1"  # fresh now: no request
        assert fake.paths("POST") == ["/v1/oauth/token"]
    stored = json.loads(path.read_text())
    assert stored["anthropic"]["type"] == "oauth"
    assert stored["anthropic"]["refresh"] == "refresh-1"
    assert stored["anthropic"]["expires"] > now_ms()
    assert stored["openai"] == {"type": "api_key", "key": "sk-kept"}
    assert path.stat().st_mode & 0o777 == 0o600
    assert not Path(f"{path}.lock").exists()


def test_a_token_not_yet_expired_is_used_without_a_request(tmp_path: Path) -> None:
    path = tmp_path / "auth.json"
    with FakeAuthServer() as fake:
        write_auth(path, {"anthropic": {"type": "oauth", "refresh": "r", "access": "live",
                                        "expires": now_ms() + 60_000}})  # fmt: skip
        auth = AuthStorage(path)
        auth.add_login_provider(TokenLogin(fake.origin))
        assert auth.stored_key("anthropic") == "live"
        assert fake.requests == []


def test_a_failed_refresh_names_login_and_keeps_the_record(tmp_path: Path) -> None:
    path = tmp_path / "auth.json"
    record = {"type": "oauth", "refresh": "revoked", "access": "old", "expires": now_ms() - 1}
    with FakeAuthServer(refresh_fails=True) as fake:
        write_auth(path, {"anthropic": record})
        before = path.read_bytes()
        auth = AuthStorage(path)
        auth.add_login_provider(TokenLogin(fake.origin))
        with pytest.raises(OAuthRefreshError) as raised:
            auth.stored_key("anthropic")
    assert "Run /login to log in to Test vendor again" in str(raised.value)
    assert "400" in str(raised.value)
    assert path.read_bytes() == before
    assert not Path(f"{path}.lock").exists()


REFRESHER = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    sys.path.insert(0, sys.argv[3])
    from test_oauth_core import TokenLogin
    from pi_core.ai.auth import AuthStorage

    auth = AuthStorage(Path(sys.argv[1]))
    auth.add_login_provider(TokenLogin(sys.argv[2]))
    print(auth.stored_key("anthropic"))
    """
)


def test_two_processes_refresh_once_under_the_lock(tmp_path: Path) -> None:
    path = tmp_path / "auth.json"
    # The refresh is held back so the second process reaches the lock while the first holds it.
    with FakeAuthServer(refresh_delay=1.0) as fake:
        fake.refresh_tokens.add("old-refresh")
        write_auth(path, {"anthropic": {"type": "oauth", "refresh": "old-refresh",
                                        "access": "old", "expires": now_ms() - 1}})  # fmt: skip
        args = [sys.executable, "-c", REFRESHER, str(path), fake.origin, str(Path(__file__).parent)]
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
        runs = [subprocess.Popen(args, stdout=subprocess.PIPE, text=True, env=env) for _ in "ab"]
        keys = [run.communicate(timeout=60)[0].strip() for run in runs]
        assert keys == ["sk-ant-oat01-access-1", "sk-ant-oat01-access-1"]
        assert fake.paths("POST") == ["/v1/oauth/token"]


def test_a_lock_pi_renews_every_15_s_is_not_taken_for_a_crash(tmp_path: Path) -> None:
    import threading
    import time

    path = tmp_path / "auth.json"
    lock = Path(f"{path}.lock")
    with FakeAuthServer() as fake:
        fake.refresh_tokens.add("old-refresh")
        write_auth(path, {"anthropic": {"type": "oauth", "refresh": "old-refresh",
                                        "access": "old", "expires": now_ms() - 1}})  # fmt: skip
        lock.mkdir()  # pi is refreshing: its lock was last renewed 20 s ago
        twenty_ago = time.time() - 20
        os.utime(lock, (twenty_ago, twenty_ago))
        auth = AuthStorage(path)
        auth.add_login_provider(TokenLogin(fake.origin))
        keys: list[str | None] = []
        waiting = threading.Thread(target=lambda: keys.append(auth.stored_key("anthropic")))
        waiting.start()
        write_auth(path, {"anthropic": {"type": "oauth", "refresh": "r1", "access": "by-pi",
                                        "expires": now_ms() + 60_000}})  # fmt: skip
        lock.rmdir()  # pi is done
        waiting.join(timeout=30)
        assert keys == ["by-pi"]
        assert fake.requests == []
