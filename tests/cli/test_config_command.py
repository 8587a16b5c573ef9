"""`pi config` is a command, never a prompt: it lists the resources pi would load and enables or
disables them in settings with the `+path` / `-path` entries pi's own `pi config` writes (a path
relative to `.pi/` or the agent dir; pi 0.73.1 reads the entry below and drops the skill)."""

from __future__ import annotations

import json

from pi_core.testing import chat_stream
from tests.cli.conftest import Cli


def _project_with_a_skill(cli: Cli) -> None:
    skill = cli.cwd / ".pi" / "skills" / "demo"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text("---\nname: demo\ndescription: The demo skill\n---\nDo it.")


def test_pi_config_lists_resources_and_sends_nothing(cli: Cli) -> None:
    _project_with_a_skill(cli)
    result = cli.run("config")
    assert result.returncode == 0, result.stderr
    assert f"[x] {cli.cwd / '.pi' / 'skills' / 'demo' / 'SKILL.md'}" in result.stdout
    assert "Project (.pi/) · Skills" in result.stdout
    assert cli.server.requests == []  # no prompt reached the model
    assert cli.sessions() == []


def test_disable_writes_pis_entry_and_the_skill_is_gone(cli: Cli) -> None:
    _project_with_a_skill(cli)
    result = cli.run("config", "disable", ".pi/skills/demo/SKILL.md")
    assert result.returncode == 0, result.stderr
    settings = json.loads((cli.cwd / ".pi" / "settings.json").read_text())
    assert settings == {"skills": ["-skills/demo/SKILL.md"]}
    assert "[ ] " in cli.run("config").stdout
    cli.server.queue(chat_stream("ok"))
    cli.run("-p", "hi")
    system = cli.server.requests[0].json()["messages"][0]["content"]
    assert "The demo skill" not in system
    assert cli.run("config", "enable", ".pi/skills/demo/SKILL.md").returncode == 0
    settings = json.loads((cli.cwd / ".pi" / "settings.json").read_text())
    assert settings == {"skills": ["+skills/demo/SKILL.md"]}


def test_disable_a_plugin_blocks_it(cli: Cli) -> None:
    result = cli.run("config", "disable", "mcp")
    assert result.returncode == 0, result.stderr
    assert json.loads((cli.agent_dir / "settings.json").read_text())["blockedPlugins"] == ["mcp"]
    assert "[ ] mcp" in cli.run("config").stdout


def test_an_unknown_resource_is_an_error(cli: Cli) -> None:
    result = cli.run("config", "disable", "no/such/file.md")
    assert result.returncode != 0
    assert "No resource" in result.stderr
    assert cli.server.requests == []
