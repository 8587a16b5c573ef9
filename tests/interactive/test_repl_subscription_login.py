"""`/login` → "Use a subscription" → Anthropic in the real REPL against a loopback fake
authorisation server: the URL goes to the browser (a stand-in `xdg-open` on PATH), the redirect
URL is pasted into the dialog, the login lands in auth.json in pi's format; `/logout` removes it.
Endpoints are moved to the fake with PI_TEST_OAUTH_ORIGIN and PI_TEST_OAUTH_CALLBACK_PORT."""

from __future__ import annotations

import json
import os
import socket
import stat
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from pi_core.ai.catalog_data import catalog_models
from pi_core.testing import FakeAuthServer
from tests.interactive.conftest import Screen


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def fake() -> Iterator[FakeAuthServer]:
    with FakeAuthServer() as server:
        yield server


def browser_stand_in(home: Path) -> tuple[Path, Path]:
    """A folder holding an `xdg-open` that writes the URL it is given to a file."""
    folder, opened = home / "bin", home / "opened-url"
    folder.mkdir()
    script = folder / "xdg-open"
    script.write_text(f'#!/bin/sh\nprintf %s "$1" > {opened}.tmp && mv {opened}.tmp {opened}\n')
    script.chmod(0o755)
    return folder, opened


def following_browser(home: Path) -> Path:
    """A folder holding an `xdg-open` that follows the login URL, redirects included, as a
    browser whose user approves at once."""
    folder = home / "bin"
    folder.mkdir()
    script = folder / "xdg-open"
    script.write_text('#!/bin/sh\nexec curl -sfL -o /dev/null "$1"\n')
    script.chmod(0o755)
    return folder


def wait_for_file(path: Path, timeout: float = 20.0) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if path.exists():
            return path.read_text()
        time.sleep(0.05)
    raise AssertionError(f"{path} never appeared")


def test_login_with_a_subscription_by_pasting_the_redirect(
    screen: Screen, fake: FakeAuthServer
) -> None:
    folder, opened = browser_stand_in(screen.home)
    env = {
        "PI_TEST_OAUTH_ORIGIN": fake.origin,
        "PI_TEST_OAUTH_CALLBACK_PORT": str(free_port()),
        "PATH": f"{folder}{os.pathsep}{os.environ['PATH']}",
    }
    screen.start(env=env)
    screen.ready()
    screen.type("/login")
    screen.keys("Enter")
    screen.wait_for("Select authentication method:")
    screen.wait_for("Use an API key")
    screen.keys("Enter")  # "Use a subscription", the first
    screen.wait_for("Log in with a subscription")
    screen.type("claude pro")
    screen.wait_for("→ Anthropic (Claude Pro/Max)")
    screen.keys("Enter")
    screen.wait_for("Paste redirect URL below, or complete login in browser:")
    url = wait_for_file(opened)
    assert url.startswith(f"{fake.origin}/oauth/authorize?")
    assert url.replace("\n", "") in "".join(screen.text().split())  # shown too, wrapped or not
    screen.paste(fake.authorize(url))
    screen.keys("Enter")
    screen.wait_for("✓ Logged in to Anthropic (Claude Pro/Max)")
    auth = screen.agent_dir / "auth.json"
    stored = json.loads(auth.read_text())["anthropic"]
    assert list(stored) == ["type", "refresh", "access", "expires"]
    assert (stored["type"], stored["access"]) == ("oauth", "sk-ant-oat01-access-1")
    assert stat.S_IMODE(auth.stat().st_mode) == 0o600
    [exchange] = fake.requests
    assert exchange.body["grant_type"] == "authorization_code"  # the fake checked the verifier

    screen.type("/logout anthropic")
    screen.keys("Enter")
    screen.wait_for("Logged out of Anthropic (Claude Pro/Max)")
    assert "anthropic" not in json.loads(auth.read_text())


def test_a_cancelled_subscription_login_stores_nothing(
    screen: Screen, fake: FakeAuthServer
) -> None:
    folder, _ = browser_stand_in(screen.home)
    env = {
        "PI_TEST_OAUTH_ORIGIN": fake.origin,
        "PI_TEST_OAUTH_CALLBACK_PORT": str(free_port()),
        "PATH": f"{folder}{os.pathsep}{os.environ['PATH']}",
    }
    screen.start(env=env)
    screen.ready()
    screen.type("/login")
    screen.keys("Enter")
    screen.wait_for("Use an API key")
    screen.keys("Enter")
    screen.wait_for("Log in with a subscription")
    screen.type("chatgpt")
    screen.wait_for("→ ChatGPT Plus/Pro (Codex Subscription)")
    screen.keys("Enter")
    screen.wait_for("Paste redirect URL below")
    screen.keys("Escape")
    screen.wait_for("Login cancelled")
    assert not (screen.agent_dir / "auth.json").exists()
    assert fake.requests == []


def test_copilot_device_code_login_shows_the_code_and_stores_the_tokens(
    screen: Screen, fake: FakeAuthServer
) -> None:
    folder, opened = browser_stand_in(screen.home)
    env = {"PI_TEST_OAUTH_ORIGIN": fake.origin,
           "PATH": f"{folder}{os.pathsep}{os.environ['PATH']}"}  # fmt: skip
    fake.pending_polls = 1
    screen.start(env=env)
    screen.ready()
    screen.type("/login")
    screen.keys("Enter")
    screen.wait_for("Use an API key")
    screen.keys("Enter")
    screen.wait_for("Log in with a subscription")
    screen.type("copilot")
    screen.wait_for("→ GitHub Copilot")
    screen.keys("Enter")
    screen.wait_for("GitHub Enterprise URL/domain (blank for github.com)")
    screen.keys("Enter")
    screen.wait_for("Enter code: ABCD-1234")
    screen.wait_for("Waiting for browser authentication...")
    assert wait_for_file(opened) == f"{fake.origin}/login/device"
    screen.wait_for("✓ Logged in to GitHub Copilot")
    stored = json.loads((screen.agent_dir / "auth.json").read_text())["github-copilot"]
    assert (stored["type"], stored["refresh"]) == ("oauth", "gho_github_token")
    assert stored["access"].startswith("tid=copilot-1;")
    screen.wait_for(lambda s: "Waiting for browser authentication" not in s)  # the dialog closed
    # every catalog model of Copilot had its policy accepted before the login finished, as pi
    policies = [p for p in fake.paths("POST") if p.endswith("/policy")]
    enabled = sorted(p.removeprefix("/models/").removesuffix("/policy") for p in policies)
    assert enabled == sorted(model["id"] for model in catalog_models("github-copilot"))


def test_copilot_device_code_login_can_be_cancelled_while_it_polls(
    screen: Screen, fake: FakeAuthServer
) -> None:
    folder, _ = browser_stand_in(screen.home)
    env = {"PI_TEST_OAUTH_ORIGIN": fake.origin,
           "PATH": f"{folder}{os.pathsep}{os.environ['PATH']}"}  # fmt: skip
    fake.pending_polls = 10_000  # never approved
    screen.start(env=env)
    screen.ready()
    screen.type("/login")
    screen.keys("Enter")
    screen.wait_for("Use an API key")
    screen.keys("Enter")
    screen.wait_for("Log in with a subscription")
    screen.type("copilot")
    screen.wait_for("→ GitHub Copilot")
    screen.keys("Enter")
    screen.wait_for("GitHub Enterprise URL/domain")
    screen.keys("Enter")
    screen.wait_for("Waiting for browser authentication...")
    screen.keys("Escape")
    screen.wait_for("Login cancelled")
    assert not (screen.agent_dir / "auth.json").exists()


def anthropic_reply(text: str) -> list[dict[str, object]]:
    """The Messages API events of a one-text answer."""
    message = {
        "id": "m",
        "type": "message",
        "role": "assistant",
        "model": "claude",
        "content": [],
        "stop_reason": None,
        "usage": {"input_tokens": 3, "output_tokens": 1},
    }
    return [
        {"type": "message_start", "message": message},
        {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
        {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": text}},
        {"type": "content_block_stop", "index": 0},
        {"type": "message_delta", "delta": {"stop_reason": "end_turn"},
         "usage": {"output_tokens": 2}},
        {"type": "message_stop"},
    ]  # fmt: skip


def expired_claude_login(screen: Screen, fake: FakeAuthServer) -> dict[str, str]:
    """An expired Claude Pro/Max login in auth.json, anthropic served by the fake LLM server."""
    record = {"type": "oauth", "refresh": "refresh-0", "access": "sk-ant-oat01-old",
              "expires": int(time.time() * 1000) - 1000}  # fmt: skip
    auth = screen.agent_dir / "auth.json"
    auth.write_text(json.dumps({"anthropic": record}, indent=2))
    auth.chmod(0o600)
    models = json.loads((screen.agent_dir / "models.json").read_text())
    models["providers"]["anthropic"] = {"baseUrl": screen.server.base_url}
    (screen.agent_dir / "models.json").write_text(json.dumps(models))
    return {"PI_TEST_OAUTH_ORIGIN": fake.origin}


def test_an_expired_login_is_refreshed_when_a_prompt_needs_it(
    screen: Screen, fake: FakeAuthServer
) -> None:
    from pi_core.testing import FakeResponse

    env = expired_claude_login(screen, fake)
    fake.refresh_tokens.add("refresh-0")
    screen.server.queue(FakeResponse.sse(anthropic_reply("FRESH-TOKEN-WORKS"), named=True))
    screen.start("--provider", "anthropic", "--model", "claude-sonnet-4-5", env=env)
    screen.wait_for("claude-sonnet-4-5")
    screen.type("hello")
    screen.keys("Enter")
    screen.wait_for("FRESH-TOKEN-WORKS")
    [request] = screen.server.requests
    assert request.headers["authorization"] == "Bearer sk-ant-oat01-access-1"
    stored = json.loads((screen.agent_dir / "auth.json").read_text())["anthropic"]
    assert stored["refresh"] == "refresh-1"


def test_a_refused_refresh_in_the_repl_says_to_log_in_again(
    screen: Screen, fake: FakeAuthServer
) -> None:
    env = expired_claude_login(screen, fake)
    before = (screen.agent_dir / "auth.json").read_text()
    screen.start("--provider", "anthropic", "--model", "claude-sonnet-4-5", env=env)
    screen.wait_for("claude-sonnet-4-5")
    screen.type("hello")
    screen.keys("Enter")
    shown = screen.wait_for("again.")
    said = " ".join(shown.split())  # wrapped or not
    assert "Run /login to log in to Anthropic (Claude Pro/Max) again." in said
    assert screen.server.requests == []
    assert (screen.agent_dir / "auth.json").read_text() == before


def test_chatgpt_login_completes_through_the_browser_redirect(screen: Screen) -> None:
    import base64

    def jwt(n: int) -> str:
        claims = {"https://api.openai.com/auth": {"chatgpt_account_id": f"acct-{n}"}}
        payload = base64.urlsafe_b64encode(json.dumps(claims).encode()).decode().rstrip("=")
        return f"e30.{payload}.sig"

    folder = following_browser(screen.home)
    with FakeAuthServer(access_token=jwt) as fake:
        env = {
            "PI_TEST_OAUTH_ORIGIN": fake.origin,
            "PI_TEST_OAUTH_CALLBACK_PORT": str(free_port()),
            "PATH": f"{folder}{os.pathsep}{os.environ['PATH']}",
        }
        screen.start(env=env)
        screen.ready()
        screen.type("/login")
        screen.keys("Enter")
        screen.wait_for("Use an API key")
        screen.keys("Enter")
        screen.wait_for("Log in with a subscription")
        screen.type("chatgpt")
        screen.wait_for("→ ChatGPT Plus/Pro (Codex Subscription)")
        screen.keys("Enter")
        screen.wait_for("✓ Logged in to ChatGPT Plus/Pro (Codex Subscription)")
        screen.wait_for(lambda s: "Paste redirect URL" not in s)  # the paste dialog closed
        stored = json.loads((screen.agent_dir / "auth.json").read_text())["openai-codex"]
        assert (stored["type"], stored["accountId"]) == ("oauth", "acct-1")
        assert [r.body["grant_type"] for r in fake.requests] == ["authorization_code"]
