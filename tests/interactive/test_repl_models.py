"""The model selector (/model, Ctrl+L), /scoped-models, /login and /logout in the real REPL."""

from __future__ import annotations

import json
import stat

from tests.interactive.conftest import Screen, stripped_lines


def add_models(screen: Screen) -> None:
    """Two more models of the fake provider, and a provider without any key."""
    path = screen.agent_dir / "models.json"
    models = json.loads(path.read_text())
    fake = models["providers"]["fake"]
    for model_id in ("other-model", "third-model"):
        fake["models"].append({"id": model_id, "contextWindow": 64000, "maxTokens": 1000})
    models["providers"]["keyless"] = {
        "baseUrl": fake["baseUrl"],
        "api": "openai-completions",
        "models": [{"id": "locked-model", "contextWindow": 64000, "maxTokens": 1000}],
    }
    path.write_text(json.dumps(models))


def command(screen: Screen, text: str) -> None:
    screen.type(text)
    screen.keys("Enter")


def test_model_selector_filters_marks_the_current_and_switches(screen: Screen) -> None:
    add_models(screen)
    screen.start()
    screen.ready()
    command(screen, "/model")
    shown = screen.wait_for("Select model")
    assert "fake/fake-model  Fake model ✓" in shown and "fake/other-model" in shown
    assert "locked-model" not in shown  # its provider has no key
    screen.type("thd")  # fuzzy: scattered letters match
    screen.wait_for(lambda s: "→ fake/third-model" in s)
    screen.keys("BSpace", "BSpace", "BSpace")
    screen.type("third")
    screen.wait_for(lambda s: "(1/1)" in s and "→ fake/third-model" in s)
    screen.keys("Enter")
    screen.wait_for("(fake) third-model")
    settings = json.loads((screen.agent_dir / "settings.json").read_text())
    assert settings["defaultModel"] == "third-model"


def test_ctrl_l_opens_the_selector_and_escape_keeps_the_model(screen: Screen) -> None:
    add_models(screen)
    screen.start()
    screen.ready()
    screen.keys("C-l")
    screen.wait_for("Select model")
    screen.keys("Down")
    screen.wait_for("→ fake/other-model")
    screen.keys("Escape")
    screen.wait_for(lambda s: "Select model" not in s)
    assert "(fake) fake-model" in screen.text()


def test_scoped_models_are_saved_and_cycled(screen: Screen) -> None:
    add_models(screen)
    screen.start()
    screen.ready()
    command(screen, "/scoped-models")
    screen.wait_for("Scoped models")
    screen.keys("Enter")  # fake-model
    screen.wait_for("[x] fake/fake-model")
    screen.type("third")
    screen.wait_for("→ [ ] fake/third-model")
    screen.keys("Enter")
    screen.wait_for("[x] fake/third-model")
    screen.keys("C-s")
    screen.wait_for("Saved 2 scoped model(s) to enabledModels")
    settings = json.loads((screen.agent_dir / "settings.json").read_text())
    assert settings["enabledModels"] == ["fake/fake-model", "fake/third-model"]
    screen.keys("C-p")
    screen.wait_for("(fake) third-model")
    screen.keys("C-p")
    screen.wait_for("(fake) fake-model")
    screen.keys("C-d")
    screen.wait_for("EXIT=0")
    screen.close()
    screen.start()  # enabledModels applies on the next start too
    screen.ready()
    screen.keys("C-p")
    screen.wait_for("(fake) third-model")


def test_scoped_models_cancel_changes_nothing(screen: Screen) -> None:
    add_models(screen)
    screen.start()
    screen.ready()
    command(screen, "/scoped-models")
    screen.wait_for("Scoped models")
    screen.keys("C-a")
    screen.wait_for("3 enabled")
    screen.keys("Escape")
    screen.wait_for("Scoped models unchanged")
    settings = json.loads((screen.agent_dir / "settings.json").read_text())
    assert "enabledModels" not in settings


def test_login_stores_a_key_unechoed_and_logout_removes_it(screen: Screen) -> None:
    add_models(screen)
    screen.start()
    screen.ready()
    command(screen, "/login")
    screen.wait_for("Select authentication method:")
    screen.wait_for("Use an API key")
    screen.keys("Down", "Enter")
    screen.wait_for("Log in to (API key)")
    screen.type("keyless")
    screen.wait_for("→ keyless")
    screen.keys("Enter")
    screen.wait_for("Paste the API key")
    screen.type("sk-very-secret")
    screen.wait_for("**************")
    assert "sk-very-secret" not in screen.text()
    screen.keys("Enter")
    screen.wait_for("✓ Saved the API key for keyless")
    assert "sk-very-secret" not in screen.text()
    auth = screen.agent_dir / "auth.json"
    assert json.loads(auth.read_text())["keyless"] == {"type": "api_key", "key": "sk-very-secret"}
    assert stat.S_IMODE(auth.stat().st_mode) == 0o600
    command(screen, "/model")
    screen.wait_for("keyless/locked-model")  # its provider is configured now
    screen.keys("Escape")
    screen.wait_for(lambda s: "Select model" not in s)
    command(screen, "/logout keyless")
    screen.wait_for("Removed the credentials of keyless")
    assert "keyless" not in json.loads(auth.read_text())
    assert stat.S_IMODE(auth.stat().st_mode) == 0o600


def test_login_help_offers_subscriptions_and_api_keys(screen: Screen) -> None:
    screen.start()
    screen.ready()
    screen.type("/log")
    shown = screen.wait_for("Log in with a subscription")
    assert any("logout" in line for line in stripped_lines(shown))
