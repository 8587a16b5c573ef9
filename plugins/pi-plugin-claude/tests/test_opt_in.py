"""`claudeSettings` on, off or unknown, and which `.claude` files close the gate (units)."""

from __future__ import annotations

from pathlib import Path

import pytest
from pi_plugin_claude.opt_in import UNSET, decide_opt_in
from pi_plugin_claude.settings import load_claude_settings
from pi_plugin_claude.settings_check import guard_problem


def broken(tmp_path: Path, text: str | bytes) -> list[tuple[str, str]]:
    """A settings file pi could not use, as `SettingsReader.unusable_files()` lists it."""
    path = tmp_path / "settings.json"
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    return [(str(path), f"{path}:1:1: invalid JSON in settings")]


def test_true_in_a_usable_file_wins(tmp_path: Path) -> None:
    assert decide_opt_in(True, broken(tmp_path, '{"claudeSettings": true,}')).enabled


def test_a_broken_file_that_mentions_the_key_is_unknown(tmp_path: Path) -> None:
    decided = decide_opt_in(UNSET, broken(tmp_path, "{claudeSettings: true}"))
    assert not decided.enabled and decided.unknown is not None
    assert "(the file sets claudeSettings)" in decided.unknown


def test_a_broken_file_without_the_key_leaves_the_gate_off(tmp_path: Path) -> None:
    assert decide_opt_in(UNSET, broken(tmp_path, '{"theme": "dark",}')).unknown is None


def test_a_file_that_is_not_utf8_is_looked_at_as_bytes(tmp_path: Path) -> None:
    decided = decide_opt_in(UNSET, broken(tmp_path, b'{"claudeSettings": true, "x": "\xff"}'))
    assert decided.unknown is not None


def test_a_folder_in_place_of_the_file_cannot_be_read(tmp_path: Path) -> None:
    folder = tmp_path / "settings.json"
    folder.mkdir()
    decided = decide_opt_in(UNSET, [(str(folder), "cannot read settings")])
    assert decided.unknown is not None and "(the file cannot be read)" in decided.unknown


@pytest.mark.parametrize(("text", "enabled"), [('{"claudeSettings": true}', True), ("{}", False)])
def test_a_file_fixed_since_pi_read_it_decides(tmp_path: Path, text: str, enabled: bool) -> None:
    unusable = broken(tmp_path, text)  # pi saw it broken; it parses now
    decided = decide_opt_in(UNSET, unusable)
    assert (decided.enabled, decided.unknown) == (enabled, None)


@pytest.mark.parametrize("value", ["true", 1, {"on": True}])
def test_a_value_that_is_not_a_boolean_is_unknown(value: object) -> None:
    decided = decide_opt_in(value, [])
    assert not decided.enabled and decided.unknown is not None
    assert "not true or false" in decided.unknown


@pytest.mark.parametrize("value", [UNSET, None, False])
def test_off_values(value: object) -> None:
    assert decide_opt_in(value, []) == decide_opt_in(UNSET, [])


@pytest.mark.parametrize(
    ("data", "problem"),
    [
        ({"permissions": {"deny": "Bash"}}, "permissions.deny: permission rules must be a list"),
        ({"permissions": {"ask": [3]}}, "permissions.ask: permission rule 3 is not a string"),
        ({"permissions": "Bash"}, "permissions must be an object"),
        ({"hooks": []}, "hooks must be an object"),
        ({"hooks": {"PreToolUse": {}}}, "hooks.PreToolUse must be a list"),
    ],
)
def test_guards_of_the_wrong_shape_are_a_problem(data: dict[str, object], problem: str) -> None:
    found = guard_problem(data)
    assert found is not None and found.startswith(problem)


def test_an_allow_rule_that_does_not_parse_is_only_skipped() -> None:
    assert guard_problem({"permissions": {"allow": ["Bash(x"], "deny": ["Read(.env)"]}}) is None


def test_load_lists_each_unusable_file_and_keeps_the_others(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    (project / ".claude").mkdir(parents=True)
    (project / ".claude" / "settings.json").write_text('{"permissions": ["Bash"]}')
    (project / ".claude" / "settings.local.json").write_text('{"permissions": {"deny": ["Read"]}}')
    loaded = load_claude_settings(project, home=str(tmp_path / "home"))
    assert loaded.unusable == [
        f"{project / '.claude' / 'settings.json'}: permissions must be an object"
    ]
    assert [rule.tool for rule in loaded.permission_policy().deny] == ["Read"]
