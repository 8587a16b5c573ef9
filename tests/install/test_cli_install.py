"""The installer commands as a user runs them (`pi` as a subprocess), on input that never reaches
pip: unknown specs, broken settings, usage errors, listing."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path


def run(pi_bin: str, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run `pi` with pip, npm and git kept offline, in case anything did reach them."""
    env = {
        **os.environ,
        "PIP_NO_INDEX": "1",
        "PIP_CONFIG_FILE": os.devnull,
        "npm_config_registry": "http://127.0.0.1:9/",
        "npm_config_fetch_retries": "0",
        "npm_config_prefix": str(cwd / ".npm-global"),
        "npm_config_cache": str(cwd / ".npm-cache"),
        "GIT_CONFIG_COUNT": "1",
        "GIT_CONFIG_KEY_0": "url.file:///nonexistent/.insteadOf",
        "GIT_CONFIG_VALUE_0": "https://",
        "GIT_TERMINAL_PROMPT": "0",
    }
    return subprocess.run(
        [pi_bin, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=120
    )


def test_each_command_has_help(pi_bin: str, project: Path) -> None:
    for command in ("install", "remove", "uninstall", "list", "update"):
        result = run(pi_bin, command, "--help", cwd=project)
        assert result.returncode == 0, result.stderr
        assert result.stdout.startswith(f"Usage: pi {command} ")
    assert "-e, --editable" in run(pi_bin, "install", "--help", cwd=project).stdout


def test_unknown_spec_is_a_clear_error(
    pi_bin: str, project: Path, isolated_agent_dir: Path
) -> None:
    # npm: and plain https:// URLs are pi packages, as in pi: a failed fetch records nothing.
    result = run(pi_bin, "install", "npm:pi-skills", cwd=project)
    assert result.returncode == 1
    assert result.stderr.startswith("Error: npm install -g pi-skills failed")
    assert not (isolated_agent_dir / "settings.json").exists()

    result = run(pi_bin, "install", "https://github.com/o/r", "-l", cwd=project)
    assert result.returncode == 1
    assert "git clone https://github.com/o/r" in result.stderr
    assert not (project / ".pi" / "settings.json").exists()


def test_broken_settings_are_left_alone(
    pi_bin: str, project: Path, isolated_agent_dir: Path
) -> None:
    settings = isolated_agent_dir / "settings.json"
    settings.write_text('{"plugins": ["pi-plugin-foo"]')
    for args in (["install", "pi-plugin-bar"], ["remove", "pi-plugin-foo"]):
        result = run(pi_bin, *args, cwd=project)
        assert result.returncode == 1
        assert f"Error: {settings}:1:" in result.stderr
        assert "fix it first (the file was left as it is)" in result.stderr
        assert "Installing" not in result.stdout
    assert settings.read_text() == '{"plugins": ["pi-plugin-foo"]'

    listed = run(pi_bin, "list", cwd=project)
    assert listed.returncode == 0
    assert f"User plugins ({settings}):\n  cannot read: {settings}:1:" in listed.stdout


def test_usage_errors(pi_bin: str, project: Path) -> None:
    assert run(pi_bin, "install", cwd=project).returncode == 2
    two = run(pi_bin, "install", "pi-plugin-a", "pi-plugin-b", cwd=project)
    assert two.returncode == 2 and "unexpected extra argument" in two.stderr
    assert run(pi_bin, "update", "--local", cwd=project).returncode == 2


def test_remove_what_is_not_recorded(pi_bin: str, project: Path) -> None:
    result = run(pi_bin, "uninstall", "pi-plugin-never-installed", cwd=project)
    assert result.returncode == 1
    assert "is not recorded in" in result.stderr


def test_list_and_update_with_records(pi_bin: str, project: Path, isolated_agent_dir: Path) -> None:
    (isolated_agent_dir / "settings.json").write_text(
        json.dumps({"plugins": ["pi-plugin-zzz==1.0", "./gone"], "packages": ["npm:x@1.0"]})
    )
    listed = run(pi_bin, "list", "--json", cwd=project)
    assert listed.returncode == 0, listed.stderr
    rows = json.loads(listed.stdout)["recorded"]
    assert [(r["spec"], r["status"]) for r in rows] == [
        ("pi-plugin-zzz==1.0", "missing"),
        ("./gone", "missing"),
    ]
    assert (
        rows[1]["install"] == f"pi install {os.path.relpath(isolated_agent_dir / 'gone', project)}"
    )

    updated = run(pi_bin, "update", cwd=project)
    assert updated.returncode == 0, updated.stderr
    assert "Skipping pi-plugin-zzz==1.0: pinned" in updated.stdout
    assert "Skipping ./gone: a local path" in updated.stdout

    plugins = run(pi_bin, "plugins", cwd=project)
    assert plugins.returncode == 0, plugins.stderr
    settings = isolated_agent_dir / "settings.json"
    assert f"  pi-plugin-zzz==1.0  recorded in {settings}\n      not installed\n" in plugins.stdout
    assert "install it with: pi install pi-plugin-zzz==1.0" in plugins.stdout
