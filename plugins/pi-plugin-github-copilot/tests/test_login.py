"""GitHub Copilot login against a loopback fake: the device code flow (with a pending poll), the
Copilot token exchange, an enterprise domain, refresh and a refused refresh."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from pi_plugin_github_copilot import CopilotLogin, copilot_base_url, normalize_domain

from pi_core.ai.auth import AuthStorage
from pi_core.ai.oauth import LoginCallbacks, LoginPrompt, OAuthError, OAuthRefreshError, now_ms
from pi_core.testing import FakeAuthServer


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeAuthServer]:
    with FakeAuthServer() as server:
        monkeypatch.setenv("PI_TEST_OAUTH_ORIGIN", server.origin)
        yield server


def answering(text: str) -> LoginCallbacks:
    shown: list[tuple[str, str | None]] = []

    async def prompt(question: LoginPrompt) -> str:
        assert question.allow_empty and "Enterprise" in question.message
        return text

    callbacks = LoginCallbacks(on_auth=lambda url, note: shown.append((url, note)),
                               on_prompt=prompt)  # fmt: skip
    callbacks.shown = shown  # type: ignore[attr-defined]
    return callbacks


async def test_device_code_login_then_the_copilot_token(
    fake: FakeAuthServer, tmp_path: Path
) -> None:
    callbacks = answering("")
    credentials = await CopilotLogin(minimum_poll_seconds=0.01).login(callbacks)
    assert callbacks.shown == [(f"{fake.origin}/login/device", "Enter code: ABCD-1234")]  # type: ignore[attr-defined]
    assert fake.paths() == ["/login/device/code", "/login/oauth/access_token",
                            "/login/oauth/access_token", "/copilot_internal/v2/token"]  # fmt: skip
    assert fake.requests[-1].headers["copilot-integration-id"] == "vscode-chat"
    assert credentials["refresh"] == "gho_github_token"
    assert credentials["access"].startswith("tid=copilot-1;")
    assert credentials["enterpriseUrl"] is None
    path = tmp_path / "auth.json"
    AuthStorage(path).set_oauth("github-copilot", credentials)
    stored = json.loads(path.read_text())["github-copilot"]
    assert list(stored) == ["type", "refresh", "access", "expires"]  # no enterpriseUrl, as pi


async def test_an_enterprise_domain_is_kept(fake: FakeAuthServer) -> None:
    credentials = await CopilotLogin(minimum_poll_seconds=0.01).login(
        answering("https://company.ghe.com/")
    )
    assert credentials["enterpriseUrl"] == "company.ghe.com"


async def test_a_bad_enterprise_domain_is_refused(fake: FakeAuthServer) -> None:
    with pytest.raises(OAuthError, match="Invalid GitHub Enterprise"):
        await CopilotLogin().login(answering("https://"))
    assert fake.requests == []


def test_the_copilot_token_is_renewed_with_the_github_token(
    fake: FakeAuthServer, tmp_path: Path
) -> None:
    path = tmp_path / "auth.json"
    record = {"type": "oauth", "refresh": "gho_github_token", "access": "tid=old",
              "expires": now_ms() - 1}  # fmt: skip
    path.write_text(json.dumps({"github-copilot": record}))
    auth = AuthStorage(path)
    auth.add_login_provider(CopilotLogin())
    assert (auth.stored_key("github-copilot") or "").startswith("tid=copilot-1;")
    assert fake.requests[-1].headers["authorization"] == "Bearer gho_github_token"
    fake.refresh_fails = True
    path.write_text(json.dumps({"github-copilot": record}))
    stale = AuthStorage(path)
    stale.add_login_provider(CopilotLogin())
    with pytest.raises(OAuthRefreshError, match="Run /login to log in to GitHub Copilot"):
        stale.stored_key("github-copilot")
    assert json.loads(path.read_text()) == {"github-copilot": record}


def test_domains_and_base_urls_as_pi_reads_them() -> None:
    assert normalize_domain(" company.ghe.com ") == "company.ghe.com"
    assert normalize_domain("") is None
    token = "tid=1;exp=2;proxy-ep=proxy.business.githubcopilot.com;"
    assert copilot_base_url(token, None) == "https://api.business.githubcopilot.com"
    assert copilot_base_url("tid=1", "company.ghe.com") == "https://copilot-api.company.ghe.com"
    assert copilot_base_url(None, None) == "https://api.individual.githubcopilot.com"


async def test_the_known_models_are_enabled_after_the_login(fake: FakeAuthServer) -> None:
    callbacks = answering("")
    callbacks.models = ["gpt-4o", "claude-sonnet-4"]
    credentials = await CopilotLogin(minimum_poll_seconds=0.01).login(callbacks)
    policies = [r for r in fake.requests if r.path.endswith("/policy")]
    assert sorted(r.path for r in policies) == [
        "/models/claude-sonnet-4/policy", "/models/gpt-4o/policy"
    ]  # fmt: skip
    for request in policies:
        assert request.body == {"state": "enabled"}
        assert request.headers["authorization"] == f"Bearer {credentials['access']}"
        assert request.headers["openai-intent"] == "chat-policy"
