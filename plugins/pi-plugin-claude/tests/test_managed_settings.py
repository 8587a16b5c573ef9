"""Claude Code's managed settings (`/etc/claude-code/managed-settings.json` and its drop-in
folder): read whatever the setting sources, winning over the others, and closing the gate when
broken. Tests point the managed folder elsewhere: units through the module, `pi -p` through a
`sitecustomize` that does the same in the child, never touching the real system folder."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from claude_pi import Pi
from managed_dir import managed_env
from pi_plugin_claude import managed
from pi_plugin_claude.settings import load_claude_settings

from pi_core.testing import chat_stream


@pytest.fixture
def policy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "managed"
    folder.mkdir()
    monkeypatch.setattr(managed, "managed_dir", lambda: folder)
    return folder


@pytest.fixture
def project(tmp_path: Path) -> Path:
    folder = tmp_path / "proj"
    (folder / ".claude").mkdir(parents=True)
    return folder


@pytest.mark.skipif(sys.platform != "linux", reason="the Linux folder")
def test_the_system_folder_is_claude_codes() -> None:
    assert managed.managed_dir() == Path("/etc/claude-code")


def test_managed_rules_apply_with_no_setting_source_and_win(policy: Path, project: Path) -> None:
    (policy / "managed-settings.json").write_text(
        json.dumps({"model": "policy", "permissions": {"deny": ["Bash(curl:*)"]}})
    )
    (project / ".claude" / "settings.json").write_text(json.dumps({"model": "project"}))
    loaded = load_claude_settings(project, setting_sources="project", home=str(project))
    assert loaded.get("model") == "policy"
    assert [str(r.specifier) for r in loaded.permission_policy().deny] == ["curl:*"]
    assert load_claude_settings(project, setting_sources="").layers[-1].source == "policy"


def test_drop_ins_follow_in_name_order_without_hidden_files(policy: Path, project: Path) -> None:
    drop_ins = policy / "managed-settings.d"
    drop_ins.mkdir()
    (drop_ins / "20-b.json").write_text(json.dumps({"model": "b"}))
    (drop_ins / "10-a.json").write_text(json.dumps({"model": "a"}))
    (drop_ins / ".hidden.json").write_text("{broken")
    (drop_ins / "notes.txt").write_text("{broken")
    loaded = load_claude_settings(project, home=str(project))
    assert [Path(layer.path or "").name for layer in loaded.layers] == ["10-a.json", "20-b.json"]
    assert loaded.get("model") == "b" and loaded.unusable == []


def test_a_broken_managed_file_is_unusable(policy: Path, project: Path) -> None:
    (policy / "managed-settings.json").write_text('{"permissions": {"deny": ["Bash"]}')
    loaded = load_claude_settings(project, setting_sources="", home=str(project))
    assert loaded.unusable == [f"{policy / 'managed-settings.json'}: invalid JSON: " + (
        "Expecting ',' delimiter (line 1)"
    )]  # fmt: skip


def move_managed_dir(pi: Pi, folder: Path) -> None:
    """Make the `pi` child read its managed settings from `folder`."""
    pi.env.update(managed_env(folder, pi.env))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (json.dumps({"permissions": {"deny": ["Bash(touch:*)"]}}),
         "Permission to use Bash with command touch made has been denied."),
        ('{"permissions": {"deny": ["Bash(touch:*)"]}', "invalid JSON"),
    ],
    ids=["deny", "broken"],
)  # fmt: skip
def test_pi_obeys_managed_deny_rules_over_a_project_allow(
    pi: Pi, tmp_path: Path, text: str, expected: str
) -> None:
    folder = tmp_path / "managed"
    folder.mkdir()
    (folder / "managed-settings.json").write_text(text)
    move_managed_dir(pi, folder)
    pi.settings(claudeSettings=True)
    pi.claude_settings({"permissions": {"allow": ["Bash(touch:*)"]}}, "settings.local.json")
    pi.call("bash", command="touch made")
    pi.queue(chat_stream("done"))
    done = pi.run("go")
    assert done.returncode == 0, done.stderr
    assert not (pi.cwd / "made").exists()
    assert expected in pi.tool_results(1)[0]
