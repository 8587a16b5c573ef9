"""What an administrator's managed settings lock down, end to end with the real `pi -p` and
`pi-claude -p`: `allowManagedPermissionRulesOnly`, `allowManagedHooksOnly` and
`permissions.disableBypassPermissionsMode`. The managed folder is a test folder (managed_dir)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest
from claude_pi import Pi
from managed_dir import managed_env, write_managed
from pi_plugin_claude.settings import load_claude_settings

from pi_core.testing import FakeLLMServer, chat_stream

TOUCH_ALLOWED = {"permissions": {"allow": ["Bash(touch:*)"]}}
NO_BYPASS = {"permissions": {"disableBypassPermissionsMode": "disable"}}


def pi_touch(pi: Pi, managed: dict[str, Any], *args: str) -> str:
    """Run `pi -p` with these managed settings; the model runs `touch made`: its tool result."""
    pi.env.update(managed_env(write_managed(pi.cwd.parent / "managed", managed), pi.env))
    pi.settings(claudeSettings=True)
    pi.call("bash", command="touch made")
    pi.queue(chat_stream("done"))
    done = pi.run("go", *args)
    assert done.returncode == 0, done.stderr
    return pi.tool_results(1)[0]


def pi_claude_touch(
    pi_claude: str,
    project: Path,
    server: FakeLLMServer,
    script: Any,
    managed: dict[str, Any],
    *args: str,
) -> tuple[dict[str, Any], str]:
    """Run `pi-claude -p` with these managed settings; the model runs `touch made`: the JSON
    result and stderr."""
    env = managed_env(write_managed(project.parent / "managed", managed), os.environ)
    server.queue(script.call("toolu_1", "Bash", {"command": "touch made"}), script.reply("done"))
    done = subprocess.run(
        [pi_claude, "-p", "go", "--output-format", "json", *args],
        input="", capture_output=True, text=True, timeout=120, env={**os.environ, **env},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout), done.stderr


def test_pi_ignores_project_allow_rules_when_only_managed_rules_count(pi: Pi) -> None:
    pi.claude_settings(TOUCH_ALLOWED, "settings.local.json")
    result = pi_touch(pi, {"allowManagedPermissionRulesOnly": True})
    assert not (pi.cwd / "made").exists()
    assert "Bash" in result and "permission" in result.lower()


def test_pi_keeps_the_managed_allow_rules_when_only_they_count(pi: Pi) -> None:
    pi.claude_settings({"permissions": {"deny": ["Bash(touch:*)"]}}, "settings.local.json")
    pi_touch(pi, {"allowManagedPermissionRulesOnly": True, **TOUCH_ALLOWED})
    assert (pi.cwd / "made").exists()  # the project's deny rule is ignored too, as in Claude


def test_pi_claude_ignores_allowed_tools_and_user_rules_when_only_managed_rules_count(
    pi_claude: str, project: Path, server: FakeLLMServer, script: Any
) -> None:
    user = project.parent / "home" / ".claude"
    user.mkdir(parents=True)
    (user / "settings.json").write_text(json.dumps(TOUCH_ALLOWED))
    result, _ = pi_claude_touch(
        pi_claude, project, server, script, {"allowManagedPermissionRulesOnly": True},
        "--allowedTools", "Bash",
    )  # fmt: skip
    assert not (project / "made").exists()
    assert [d["tool_name"] for d in result["permission_denials"]] == ["Bash"]


def test_pi_runs_only_managed_hooks_when_only_they_count(pi: Pi, tmp_path: Path) -> None:
    def hook(marker: str) -> dict[str, Any]:
        command = f"touch {tmp_path / marker}"
        return {"UserPromptSubmit": [{"hooks": [{"type": "command", "command": command}]}]}

    pi.claude_settings({"hooks": hook("project-hook-ran")})
    managed = {"allowManagedHooksOnly": True, "hooks": hook("managed-hook-ran")}
    pi.env.update(managed_env(write_managed(tmp_path / "managed", managed), pi.env))
    pi.settings(claudeSettings=True)
    pi.queue(chat_stream("done"))
    done = pi.run("go")
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "managed-hook-ran").exists()
    assert not (tmp_path / "project-hook-ran").exists()


def test_pi_does_not_bypass_permissions_when_settings_disable_it(pi: Pi) -> None:
    pi.claude_settings({"permissions": {"defaultMode": "bypassPermissions"}})
    result = pi_touch(pi, NO_BYPASS)
    assert not (pi.cwd / "made").exists()
    assert "Bash" in result and "permission" in result.lower()


BAD_NO_BYPASS = {"permissions": {"disableBypassPermissionsMode": 1}}


@pytest.mark.parametrize("managed", [NO_BYPASS, BAD_NO_BYPASS], ids=["disable", "wrong-type"])
def test_pi_claude_refuses_bypass_mode_when_settings_disable_it(
    pi_claude: str, project: Path, server: FakeLLMServer, script: Any, managed: dict[str, Any]
) -> None:
    result, stderr = pi_claude_touch(
        pi_claude, project, server, script, managed, "--permission-mode", "bypassPermissions"
    )
    assert not (project / "made").exists()
    assert [d["tool_name"] for d in result["permission_denials"]] == ["Bash"]
    assert "pi-claude: Bypass permissions mode was disabled by settings" in stderr


def test_a_managed_switch_of_the_wrong_type_counts_as_on(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    (project / ".claude").mkdir(parents=True)
    (project / ".claude" / "settings.json").write_text(json.dumps(TOUCH_ALLOWED))
    folder = write_managed(tmp_path / "managed", {"allowManagedPermissionRulesOnly": "yes"})
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("pi_plugin_claude.managed.managed_dir", lambda: folder)
        loaded = load_claude_settings(project, home=str(tmp_path))
        assert loaded.permission_policy().allow == []
    assert any(
        "allowManagedPermissionRulesOnly must be true or false" in p for p in loaded.problems
    )


def test_a_bad_deny_rule_is_reported_once_by_pi_claude(
    pi_claude: str, project: Path, server: FakeLLMServer, script: Any
) -> None:
    (project / ".claude").mkdir()
    (project / ".claude" / "settings.json").write_text(
        json.dumps({"permissions": {"deny": ["Bash(touch:*"]}})
    )
    _, stderr = pi_claude_touch(pi_claude, project, server, script, {})
    assert not (project / "made").exists()
    assert stderr.count("Bash(touch:*") == 1, stderr


def sdk_options(pi_claude: str, project: Path, managed: dict[str, Any], **extra: Any) -> Any:
    """Agent SDK options that run pi-claude with these managed settings."""
    from claude_agent_sdk import ClaudeAgentOptions

    folder = write_managed(project.parent / "managed", managed)
    env = managed_env(folder, os.environ)
    return ClaudeAgentOptions(cli_path=pi_claude, cwd=str(project), env=env, **extra)


async def test_the_sdk_cannot_switch_to_bypass_mode_when_settings_disable_it(
    pi_claude: str, project: Path, server: FakeLLMServer, script: Any
) -> None:
    from claude_agent_sdk import ClaudeSDKClient

    server.queue(script.reply("one"))
    async with ClaudeSDKClient(sdk_options(pi_claude, project, NO_BYPASS)) as client:
        with pytest.raises(Exception, match="bypassPermissions because it is disabled"):
            await client.set_permission_mode("bypassPermissions")
        await client.set_permission_mode("acceptEdits")  # the other modes still switch
        await client.query("first")
        seen = [m async for m in client.receive_response()]
    init = next(m for m in seen if getattr(m, "subtype", None) == "init")
    assert init.data["permissionMode"] == "acceptEdits"


async def test_rules_from_a_permission_answer_are_not_kept_when_only_managed_rules_count(
    pi_claude: str, project: Path, server: FakeLLMServer, script: Any
) -> None:
    from claude_agent_sdk import ClaudeSDKClient, PermissionResultAllow, PermissionUpdate
    from claude_agent_sdk.types import PermissionRuleValue

    asked: list[str] = []

    async def allow_and_remember(name: str, tool_input: dict[str, Any], _: Any) -> Any:
        asked.append(tool_input["command"])
        rule = PermissionRuleValue(tool_name="Bash", rule_content="touch:*")
        remember = PermissionUpdate("addRules", [rule], "allow", destination="session")
        return PermissionResultAllow(updated_permissions=[remember])

    server.queue(
        script.call("toolu_1", "Bash", {"command": "touch one"}),
        script.call("toolu_2", "Bash", {"command": "touch two"}),
        script.reply("done"),
    )
    managed = {"allowManagedPermissionRulesOnly": True}
    options = sdk_options(pi_claude, project, managed, can_use_tool=allow_and_remember)
    async with ClaudeSDKClient(options) as client:
        await client.query("go")
        _ = [m async for m in client.receive_response()]
    assert asked == ["touch one", "touch two"]  # the remembered rule was not kept
