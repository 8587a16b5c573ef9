"""Theme files and keybindings.json, read without a terminal."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pi_core.modes.interactive.keybindings import hotkey_rows, load_keymap
from pi_core.modes.interactive.themes.active import background_from_reply
from pi_core.modes.interactive.themes.builtin import DARK, LIGHT, REQUIRED_TOKENS
from pi_core.modes.interactive.themes.loader import ThemeError, build_styles, xterm_hex


def theme_with(**colours: object) -> dict[str, object]:
    return {"name": "t", "vars": dict(DARK["vars"]), "colors": {**DARK["colors"], **colours}}


def test_builtin_themes_define_every_token() -> None:
    for theme in (DARK, LIGHT):
        styles = build_styles(theme)
        assert set(REQUIRED_TOKENS) <= set(styles)
    assert build_styles(DARK)["userMessageBg"] == "on #343541"
    assert build_styles(DARK)["thinkingText"] == "italic #808080"
    assert build_styles(LIGHT)["accent"] == "#5a8080"


def test_colour_forms_hex_index_var_chain_and_default() -> None:
    styles = build_styles(
        {
            **theme_with(accent=21, success="alias", text=""),
            "vars": {**DARK["vars"], "alias": "green"},
        }
    )
    assert styles["accent"] == xterm_hex(21) == "#0000ff"
    assert styles["success"] == "#b5bd68"
    assert styles["text"] == ""
    assert xterm_hex(244) == "#808080"


@pytest.mark.parametrize(
    ("colours", "message"),
    [
        ({"accent": "#12345"}, "accent: '#12345' is neither"),
        ({"border": 256}, "border: colour index 256 is outside 0-255"),
        ({"muted": "nosuchvar"}, "muted: 'nosuchvar' is neither"),
        ({"error": True}, "error: True is not a colour"),
    ],
)
def test_bad_colours_are_named(colours: dict[str, object], message: str) -> None:
    with pytest.raises(ThemeError, match=message.replace("(", r"\(")):
        build_styles(theme_with(**colours))


def test_missing_tokens_are_listed() -> None:
    data = theme_with()
    del data["colors"]["bashMode"]  # type: ignore[attr-defined]
    with pytest.raises(ThemeError, match="missing colours: bashMode"):
        build_styles(data)


def test_background_from_osc11_reply() -> None:
    assert background_from_reply("\x1b]11;rgb:ffff/ffff/ffff\x1b\\") == "light"
    assert background_from_reply("\x1b]11;rgb:0000/0000/0000\x07") == "dark"
    assert background_from_reply("\x1b]11;rgb:1e/1e/2e\x07") == "dark"
    assert background_from_reply("garbage") == "dark"


def test_keymap_defaults_overrides_legacy_names_and_warnings(tmp_path: Path) -> None:
    path = tmp_path / "keybindings.json"
    assert load_keymap(path).keys("app.model.select") == ["ctrl+l"]  # no file: defaults
    path.write_text(json.dumps({
        "app.model.select": ["ctrl+k", "alt+m"],
        "cycleThinkingLevel": "f5",
        "app.nothing": "ctrl+q",
        "app.tools.expand": "hyper+x",
        "app.thinking.toggle": 5,
    }))  # fmt: skip
    keymap = load_keymap(path)
    assert keymap.keys("app.model.select") == ["ctrl+k", "alt+m"]
    assert keymap.keys("app.thinking.cycle") == ["f5"]
    assert keymap.keys("app.thinking.toggle") == ["ctrl+t"]  # a bad value keeps the default
    joined = "\n".join(keymap.warnings)
    assert "unknown action 'app.nothing' ignored" in joined
    assert "app.tools.expand: key 'hyper+x' not understood" in joined
    assert "app.thinking.toggle: expected a key or a list of keys" in joined
    rows = {action: keys for keys, action, _ in hotkey_rows(keymap)}
    assert rows["app.model.select"] == "ctrl+k, alt+m"


def test_unreadable_keybindings_file_is_a_warning(tmp_path: Path) -> None:
    path = tmp_path / "keybindings.json"
    path.write_text("{not json")
    keymap = load_keymap(path)
    assert keymap.overrides == {} and "cannot read it" in keymap.warnings[0]
    path.write_text("[1, 2]")
    assert "must be a JSON object" in load_keymap(path).warnings[0]
