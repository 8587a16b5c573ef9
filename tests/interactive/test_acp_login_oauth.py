"""`pi acp --login` (the ACP registry's terminal login) with a subscription: the OAuth path.

The REPL's `/login` runs against the loopback fake authorisation server of pi_core.testing
(PI_TEST_OAUTH_ORIGIN, PI_TEST_OAUTH_CALLBACK_PORT); the browser is a stand-in `xdg-open` that
writes the URL to a file, and the test pastes the redirect URL the fake gives for it.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterator

import pytest

from pi_core.testing import FakeAuthServer
from tests.interactive.conftest import Screen
from tests.interactive.test_repl_subscription_login import (
    browser_stand_in,
    free_port,
    wait_for_file,
)

pytestmark = pytest.mark.slow


@pytest.fixture
def fake() -> Iterator[FakeAuthServer]:
    with FakeAuthServer() as server:
        yield server


def test_acp_login_with_a_subscription_stores_the_tokens_and_leaves(
    screen: Screen, fake: FakeAuthServer
) -> None:
    folder, opened = browser_stand_in(screen.home)
    env = {
        "PI_TEST_OAUTH_ORIGIN": fake.origin,
        "PI_TEST_OAUTH_CALLBACK_PORT": str(free_port()),
        "PATH": f"{folder}{os.pathsep}{os.environ['PATH']}",
    }
    screen.start("acp", "--login", env=env)
    screen.wait_for("Select authentication method")
    screen.keys("Enter")  # "Use a subscription", the first
    screen.wait_for("Log in with a subscription")
    screen.type("claude pro")
    screen.wait_for("→ Anthropic (Claude Pro/Max)")
    screen.keys("Enter")
    screen.wait_for("Paste redirect URL below, or complete login in browser:")
    url = wait_for_file(opened)
    assert url.startswith(f"{fake.origin}/oauth/authorize?")
    screen.paste(fake.authorize(url))
    screen.keys("Enter")
    screen.wait_for("EXIT=0")  # the login ended, so did `pi acp --login`
    auth = screen.agent_dir / "auth.json"
    stored = json.loads(auth.read_text())["anthropic"]
    assert (stored["type"], stored["access"]) == ("oauth", "sk-ant-oat01-access-1")
    assert stat.S_IMODE(auth.stat().st_mode) == 0o600
    [exchange] = fake.requests
    assert exchange.body["grant_type"] == "authorization_code"
    assert screen.sessions() == []  # the login's session is kept in memory only
