"""/settings, themes (custom, bad, hot reload, live preview) and keybindings.json in the REPL."""

from __future__ import annotations

import json
from typing import Any

from pi_core.modes.interactive.themes.builtin import DARK
from tests.interactive.conftest import Screen, stripped_lines


def command(screen: Screen, text: str) -> None:
    screen.type(text)
    screen.keys("Enter")


def settings(screen: Screen) -> dict[str, Any]:
    return dict(json.loads((screen.agent_dir / "settings.json").read_text()))


def set_settings(screen: Screen, **values: Any) -> None:
    current = settings(screen)
    current.update(values)
    (screen.agent_dir / "settings.json").write_text(json.dumps(current))


def write_theme(screen: Screen, name: str, **colours: Any) -> None:
    folder = screen.agent_dir / "themes"
    folder.mkdir(exist_ok=True)
    theme = {"name": name, "vars": dict(DARK["vars"]), "colors": {**DARK["colors"], **colours}}
    (folder / f"{name}.json").write_text(json.dumps(theme))


def rule_escapes(screen: Screen) -> str:
    """The escape codes drawn on the editor's top rule (its colour follows the theme)."""
    coloured = screen._tmux("capture-pane", "-p", "-e")
    rules = [line for line in coloured.splitlines() if "──────────" in line]
    return rules[-2].split("─")[0] if len(rules) >= 2 else ""


def test_settings_flips_a_switch_and_saves_at_once(screen: Screen) -> None:
    screen.start()
    screen.ready()
    command(screen, "/settings")
    screen.wait_for("Settings")
    screen.type("hide thinking")
    screen.wait_for(lambda s: "(1/1)" in s and "Hide thinking" in s)
    screen.keys("Enter")
    screen.wait_for(lambda s: any(line.startswith("→ Hide thinking") and " true " in line
                                  for line in stripped_lines(s)))  # fmt: skip
    assert settings(screen)["hideThinkingBlock"] is True


def test_settings_choice_list_saves_the_choice_and_escape_goes_back(screen: Screen) -> None:
    screen.start()
    screen.ready()
    command(screen, "/settings")
    screen.wait_for("Settings")
    screen.type("double")
    screen.wait_for("→ Double-escape action")
    screen.keys("Enter")
    screen.wait_for("→ tree")
    screen.keys("Down", "Enter")
    screen.wait_for(lambda s: "→ Double-escape action" in s and "fork" in s)
    assert settings(screen)["doubleEscapeAction"] == "fork"
    screen.keys("Escape")
    screen.wait_for(lambda s: "type to search" not in s)


def test_theme_preview_is_live_and_escape_restores_it(screen: Screen) -> None:
    set_settings(screen, theme="dark")
    screen.start()
    screen.ready()
    command(screen, "/settings")
    screen.wait_for("Settings")
    dark_rule = rule_escapes(screen)
    screen.type("theme")
    screen.wait_for("→ Theme")
    screen.keys("Enter")
    screen.wait_for("→ dark")
    screen.keys("Down")
    screen.wait_for("→ light")
    light_rule = screen.wait_for(lambda s: rule_escapes(screen) != dark_rule) and rule_escapes(
        screen
    )
    assert light_rule != dark_rule
    screen.keys("Escape")  # back to the list: the preview ends
    screen.wait_for(lambda s: rule_escapes(screen) == dark_rule)
    assert settings(screen)["theme"] == "dark"
    screen.keys("Enter")
    screen.wait_for("→ dark")
    screen.keys("Down", "Enter")
    screen.wait_for(lambda s: settings(screen).get("theme") == "light")


def test_first_run_saves_a_detected_theme(screen: Screen) -> None:
    assert "theme" not in settings(screen)
    screen.start()
    screen.ready()
    screen.wait_for(lambda s: settings(screen).get("theme") in ("dark", "light"))


def test_custom_theme_is_offered_and_used(screen: Screen) -> None:
    write_theme(screen, "ocean", accent="#0000ff")
    set_settings(screen, theme="ocean")
    screen.start()
    shown = screen.ready()
    assert "Warning" not in shown
    command(screen, "/settings")
    screen.wait_for("type to search")
    screen.type("theme")
    screen.wait_for(lambda s: "→ Theme" in s and "ocean" in s)


def test_theme_with_bad_colours_warns_and_keeps_the_default(screen: Screen) -> None:
    write_theme(screen, "broken", accent="not-a-colour", border=999)
    set_settings(screen, theme="broken")
    screen.start()
    shown = screen.ready()
    assert "Warning: theme" in shown and "'not-a-colour' is neither" in shown
    assert "using the default theme" in shown


def test_unknown_theme_name_warns(screen: Screen) -> None:
    set_settings(screen, theme="nosuch")
    screen.start()
    screen.wait_for("theme 'nosuch' not found")


def test_theme_file_is_hot_reloaded_and_a_bad_edit_keeps_it(screen: Screen) -> None:
    write_theme(screen, "ocean")
    set_settings(screen, theme="ocean")
    screen.start()
    screen.ready()
    before = rule_escapes(screen)
    write_theme(screen, "ocean", thinkingMedium="#ff0000")
    screen.wait_for("Theme ocean reloaded")
    screen.wait_for(lambda s: rule_escapes(screen) != before)
    write_theme(screen, "ocean", thinkingMedium="reddish")
    screen.wait_for("kept the current one")


def test_keybindings_file_rebinds_and_warns_about_unknown_actions(screen: Screen) -> None:
    models = json.loads((screen.agent_dir / "models.json").read_text())
    models["providers"]["fake"]["models"].append(
        {"id": "other-model", "contextWindow": 64000, "maxTokens": 1000}
    )
    (screen.agent_dir / "models.json").write_text(json.dumps(models))
    (screen.agent_dir / "keybindings.json").write_text(json.dumps(
        {"app.model.cycleForward": "ctrl+x", "app.bogus": "ctrl+q", "selectModel": "alt+m"}
    ))  # fmt: skip
    screen.start()
    shown = screen.ready()
    assert "unknown action 'app.bogus' ignored" in shown
    screen.keys("C-x")
    screen.wait_for("(fake) other-model")
    screen.keys("M-m")  # the legacy name `selectModel` is migrated
    screen.wait_for("Select model")
    screen.keys("Escape")
    screen.wait_for(lambda s: "Select model" not in s)
    command(screen, "/hotkeys")
    shown = screen.wait_for("Keyboard shortcuts")
    lines = stripped_lines(shown)
    assert any(line.startswith("ctrl+x") and "app.model.cycleForward" in line for line in lines)
    assert any(line.startswith("alt+m") and "app.model.select" in line for line in lines)


THEME_PLUGIN = """
from pi_core import hookimpl
from pi_core.events.session import ResourcesDiscoverResult


@hookimpl
def resources_discover(event, ctx):
    return ResourcesDiscoverResult(theme_paths=[{folder!r}])
"""


def test_a_plugin_contributes_a_theme_through_resources_discover(screen: Screen) -> None:
    folder = screen.home / "plugin-themes"
    folder.mkdir()
    theme = {"name": "plugged", "vars": dict(DARK["vars"]), "colors": dict(DARK["colors"])}
    (folder / "plugged.json").write_text(json.dumps(theme))
    plugin = screen.home / "theme_plugin.py"
    plugin.write_text(THEME_PLUGIN.format(folder=str(folder)))
    set_settings(screen, theme="plugged")
    screen.start("-e", str(plugin))
    shown = screen.ready()
    assert "Warning" not in shown
    command(screen, "/settings")
    screen.wait_for("type to search")
    screen.type("theme")
    screen.wait_for(lambda s: "→ Theme" in s and "plugged" in s)
