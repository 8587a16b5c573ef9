"""`pi acp --login` (the ACP terminal login): pi's REPL runs `/login`, stores a key, leaves."""

from __future__ import annotations

import json
import re

import pytest

from tests.interactive.conftest import Screen

pytestmark = pytest.mark.slow


def test_acp_login_stores_an_api_key_and_leaves(screen: Screen) -> None:
    screen.start("acp", "--login")
    screen.wait_for("Select authentication method")
    screen.keys("Down", "Enter")
    screen.wait_for("Log in to")
    screen.type("openai")
    screen.wait_for(lambda text: re.search(r"→ openai\s*$", text, re.MULTILINE) is not None)
    screen.keys("Enter")
    screen.wait_for("API key for openai")
    screen.type("sk-from-the-editor")
    screen.keys("Enter")
    screen.wait_for("Saved the API key for openai")
    stored = json.loads((screen.agent_dir / "auth.json").read_text())
    assert stored["openai"]["key"] == "sk-from-the-editor"
    screen.wait_for("EXIT=0")  # nothing more to type: the login ended, so did pi
    assert screen.sessions() == []  # the login's session is kept in memory only


def test_acp_login_leaves_when_cancelled(screen: Screen) -> None:
    screen.start("acp", "--login")
    screen.wait_for("Select authentication method")
    screen.keys("Escape")
    screen.wait_for("EXIT=0")
    assert not (screen.agent_dir / "auth.json").exists()
