"""With a Claude Pro/Max login in auth.json, the REPL warns once that the subscription is billed
as extra usage (the anthropic plugin, reading `warnings.anthropicExtraUsage` through
`ctx.settings`); the setting turns it off. `/logout` of the login says "Logged out of …", as pi."""

from __future__ import annotations

import json
import time

from tests.interactive.conftest import Screen

WARNING = "billed as extra usage"
MODEL = "claude-sonnet-4-5"


def log_in_with_a_subscription(screen: Screen, warnings: bool | None = None) -> None:
    """Store a Claude Pro/Max login good for an hour and make Anthropic's model the default."""
    expires = int(time.time() * 1000) + 3_600_000
    login = {"type": "oauth", "refresh": "r-1", "access": "sk-ant-oat01-a", "expires": expires}
    (screen.agent_dir / "auth.json").write_text(json.dumps({"anthropic": login}))
    settings: dict[str, object] = {"defaultProvider": "anthropic", "defaultModel": MODEL}
    if warnings is not None:
        settings["warnings"] = {"anthropicExtraUsage": warnings}
    (screen.agent_dir / "settings.json").write_text(json.dumps(settings))


def test_a_subscription_login_is_warned_about_once(screen: Screen) -> None:
    log_in_with_a_subscription(screen)
    screen.start()
    screen.wait_for(WARNING)
    screen.type("/model claude-opus-4-5")  # another Anthropic model: no second warning
    screen.wait_for("anthropic/claude-opus-4-5")  # the argument menu's entry
    screen.keys("Escape")  # the menu closed, Enter sends the line as typed
    screen.wait_for(lambda text: "anthropic/claude-opus-4-5" not in text)
    screen.keys("Enter")
    shown = screen.wait_for("(anthropic) claude-opus-4-5")  # the footer, not the typed line
    assert "".join(shown.split()).count("".join(WARNING.split())) == 1
    screen.type("/logout anthropic")
    screen.keys("Enter")
    shown = screen.wait_for("Logged out of Anthropic (Claude Pro/Max)")
    assert "".join(shown.split()).count("".join(WARNING.split())) == 1


def test_the_setting_turns_the_warning_off(screen: Screen) -> None:
    log_in_with_a_subscription(screen, warnings=False)
    screen.start()
    screen.wait_for(f"(anthropic) {MODEL}")
    screen.type("/logout anthropic")
    screen.keys("Enter")
    shown = screen.wait_for("Logged out of Anthropic (Claude Pro/Max)")
    assert WARNING not in "".join(shown.split("\n"))
