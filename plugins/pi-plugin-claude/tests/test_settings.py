"""Claude settings: user < project < local < --settings, setting sources, and bad files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pi_plugin_claude.settings import load_claude_settings, parse_setting_sources


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    (home / ".claude").mkdir(parents=True)
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    return home


@pytest.fixture
def project(tmp_path: Path) -> Path:
    project = tmp_path / "proj"
    (project / ".claude").mkdir(parents=True)
    return project


def write(path: Path, value: object) -> None:
    path.write_text(json.dumps(value))


def layered(home: Path, project: Path) -> None:
    write(home / ".claude/settings.json", {
        "model": "user-model", "theme": "dark",
        "permissions": {"allow": ["Bash(ls:*)"], "defaultMode": "plan"},
        "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo user"}]}]},
    })  # fmt: skip
    write(project / ".claude/settings.json", {
        "model": "project-model",
        "permissions": {"deny": ["Bash(rm:*)"]},
        "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo project"}]}]},
    })  # fmt: skip
    write(project / ".claude/settings.local.json", {
        "model": "local-model", "permissions": {"defaultMode": "acceptEdits"}
    })  # fmt: skip


def test_later_sources_win_and_rules_and_hooks_add_up(home: Path, project: Path) -> None:
    layered(home, project)
    settings = load_claude_settings(project, home=str(home))
    assert [layer.source for layer in settings.layers] == ["user", "project", "local"]
    assert settings.get("model") == "local-model"
    assert settings.get("theme") == "dark"
    policy = settings.permission_policy()
    assert policy.mode == "acceptEdits"
    assert [str(r) for r in policy.allow] == ["Bash(ls:*)"]
    assert [str(r) for r in policy.deny] == ["Bash(rm:*)"]
    commands = [h["hooks"][0]["command"] for h in settings.hooks()["Stop"]]
    assert commands == ["echo user", "echo project"]
    assert settings.problems == []


def test_the_settings_flag_wins_over_every_file(home: Path, project: Path) -> None:
    layered(home, project)
    inline = load_claude_settings(project, settings='{"model": "flag-model"}', home=str(home))
    assert inline.get("model") == "flag-model"
    (project / "extra.json").write_text('{"model": "file-model"}')
    from_file = load_claude_settings(project, settings="extra.json", home=str(home))
    assert from_file.get("model") == "file-model"
    assert from_file.layers[-1].source == "flag"


def test_setting_sources_choose_the_files(home: Path, project: Path) -> None:
    layered(home, project)
    only_user = load_claude_settings(project, setting_sources="user", home=str(home))
    assert only_user.get("model") == "user-model"
    assert only_user.permission_policy().mode == "plan"
    none = load_claude_settings(project, setting_sources="", home=str(home))
    assert none.layers == [] and none.get("model") is None
    both = load_claude_settings(project, setting_sources=["user", "project"], home=str(home))
    assert both.get("model") == "project-model"


def test_claude_config_dir_moves_the_user_settings(
    home: Path, project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    other = tmp_path / "cfg"
    other.mkdir()
    write(other / "settings.json", {"model": "moved"})
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(other))
    assert load_claude_settings(project, home=str(home)).get("model") == "moved"


def test_bad_files_are_reported_and_skipped(home: Path, project: Path) -> None:
    (home / ".claude/settings.json").write_text("{not json")
    write(project / ".claude/settings.json", ["a", "list"])
    write(project / ".claude/settings.local.json", {"permissions": {"allow": ["Bash(x"]}})
    settings = load_claude_settings(project, settings="missing.json", home=str(home))
    settings.permission_policy()
    assert len(settings.problems) == 4, settings.problems
    assert "invalid JSON" in settings.problems[0]
    assert "must be a JSON object" in settings.problems[1]
    assert "file not found" in settings.problems[2]
    assert "Invalid permission rule 'Bash(x'" in settings.problems[3]


def test_unknown_setting_source_is_an_error() -> None:
    with pytest.raises(ValueError, match="Invalid setting source 'team'"):
        parse_setting_sources("user,team")


def test_cli_rules_join_the_settings_rules(home: Path, project: Path) -> None:
    layered(home, project)
    policy = load_claude_settings(project, home=str(home)).permission_policy(
        mode="dontAsk", allowed_tools=["Read"], disallowed_tools=["WebSearch"], add_dirs=["/w2"]
    )
    assert policy.mode == "dontAsk"
    assert [str(r) for r in policy.allow] == ["Bash(ls:*)", "Read"]
    assert [str(r) for r in policy.deny] == ["Bash(rm:*)", "WebSearch"]
    assert "/w2" in policy.additional_directories
