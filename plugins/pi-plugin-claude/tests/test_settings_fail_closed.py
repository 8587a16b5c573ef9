"""A broken settings file never leaves the Claude permission gate silently open (`pi -p`).

A `.pi/settings.json` that cannot be used may hold `claudeSettings: true`; a `.claude` settings
file that cannot be used may hold deny rules. Either way the tool call is refused with the file's
name, and the file is left as it was.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from claude_pi import Pi

from pi_core.modes.rpc_client import RpcClient
from pi_core.testing import FakeLLMServer, chat_stream, console_script

BROKEN_OPT_IN = '{"claudeSettings": true,}'


def project_settings(pi: Pi, text: str) -> Path:
    """Write the project's `.pi/settings.json` as raw text."""
    path = pi.cwd / ".pi" / "settings.json"
    path.parent.mkdir(exist_ok=True)
    path.write_text(text)
    return path


def bash_and_finish(pi: Pi, command: str, *args: str) -> tuple[str, str]:
    """The model runs pi's bash once, then answers; return the tool result and pi's stderr."""
    pi.call("bash", command=command)
    pi.queue(chat_stream("done"))
    done = pi.run("go", *args)
    assert done.returncode == 0, done.stderr
    results = pi.tool_results(1)
    assert len(results) == 1
    return results[0], done.stderr


@pytest.mark.parametrize("mode", ["text", "json"])
def test_a_broken_project_settings_file_that_sets_claude_settings_refuses_tools(
    pi: Pi, mode: str
) -> None:
    path = project_settings(pi, BROKEN_OPT_IN)
    pi.claude_settings({"permissions": {"deny": ["Bash(touch:*)"]}})
    result, stderr = bash_and_finish(pi, "touch made", "--mode", mode)
    assert not (pi.cwd / "made").exists()
    assert str(path) in result
    assert "pi cannot tell whether Claude's permission rules apply" in result
    assert "No tool may run until the file is fixed" in result
    assert f"Claude settings: {path}" in stderr
    assert path.read_text() == BROKEN_OPT_IN  # never rewritten


def test_rpc_mode_refuses_tools_while_the_opt_in_is_broken(pi: Pi) -> None:
    path = project_settings(pi, BROKEN_OPT_IN)
    pi.call("bash", command="touch made")
    pi.queue(chat_stream("done"))
    notices: list[str] = []

    def keep_notice(event: dict[str, Any]) -> None:
        if event.get("method") == "notify":
            notices.append(str(event.get("message")))

    async def main() -> None:
        program = [console_script("pi")]
        async with RpcClient(["--no-session"], cwd=str(pi.cwd), env=pi.env, program=program) as rpc:
            rpc.on_event(keep_notice)
            await rpc.prompt("go")
            await rpc.wait_for_idle(timeout=30)

    asyncio.run(main())
    assert not (pi.cwd / "made").exists()
    assert str(path) in pi.tool_results(1)[0]
    assert any("pi cannot tell whether" in notice for notice in notices)


def test_a_broken_project_settings_file_without_the_key_leaves_the_gate_off(pi: Pi) -> None:
    project_settings(pi, '{"theme": "dark",}')
    pi.claude_settings({"permissions": {"deny": ["Bash(touch:*)"]}})
    result, _ = bash_and_finish(pi, "touch made")
    assert (pi.cwd / "made").exists(), result


def test_an_unreadable_project_settings_file_refuses_tools(pi: Pi) -> None:
    path = pi.cwd / ".pi" / "settings.json"
    path.mkdir(parents=True)  # a folder cannot be read as a file, even by root
    result, _ = bash_and_finish(pi, "touch made")
    assert not (pi.cwd / "made").exists()
    assert str(path) in result and "the file cannot be read" in result


def test_claude_settings_that_is_not_a_boolean_refuses_tools(pi: Pi) -> None:
    project_settings(pi, json.dumps({"claudeSettings": "true"}))
    result, _ = bash_and_finish(pi, "touch made")
    assert not (pi.cwd / "made").exists()
    assert 'claudeSettings is "true", not true or false' in result


def test_true_in_a_readable_file_applies_the_rules_whatever_else_is_broken(pi: Pi) -> None:
    pi.settings(claudeSettings=True)
    project_settings(pi, BROKEN_OPT_IN)
    pi.claude_settings({"permissions": {"deny": ["Bash(touch:*)"]}})
    result, _ = bash_and_finish(pi, "touch made")
    assert result == "Permission to use Bash with command touch made has been denied."


@pytest.mark.parametrize(
    "text",
    ['{"permissions": {"deny": ["Bash(touch:*)"]},}', '{"permissions": {"deny": "Bash(touch:*)"}}',
     '{"permissions": ["Bash(touch:*)"]}', '{"permissions": {"deny": ["Bash(touch:*"]}}',
     '["deny"]'],
    ids=["invalid-json", "deny-not-a-list", "permissions-not-an-object", "bad-deny-rule",
         "not-an-object"],
)  # fmt: skip
def test_a_broken_claude_settings_file_refuses_what_other_files_allow(pi: Pi, text: str) -> None:
    pi.settings(claudeSettings=True)
    pi.claude_settings({"permissions": {"allow": ["Bash(touch:*)"]}}, "settings.local.json")
    broken = pi.cwd / ".claude" / "settings.json"
    broken.write_text(text)
    result, stderr = bash_and_finish(pi, "touch made")
    assert not (pi.cwd / "made").exists()
    assert result.startswith(f"Claude settings: {broken}: ")
    assert "no tool may run until the file is fixed" in result
    assert str(broken) in stderr
    assert broken.read_text() == text


def test_an_unreadable_claude_settings_file_refuses_tools(pi: Pi) -> None:
    pi.settings(claudeSettings=True)
    pi.claude_settings({"permissions": {"allow": ["Bash(touch:*)"]}}, "settings.local.json")
    (pi.cwd / ".claude" / "settings.json").mkdir()
    result, _ = bash_and_finish(pi, "touch made")
    assert not (pi.cwd / "made").exists()
    assert "cannot read settings" in result


def test_pi_claude_refuses_tools_while_a_claude_settings_file_is_broken(
    pi_claude: str, project: Path, server: FakeLLMServer, script: Any
) -> None:
    broken = project / ".claude" / "settings.json"
    broken.parent.mkdir()
    broken.write_text('{"permissions": {"deny": ["Bash(touch:*)"]}')
    server.queue(script.call("toolu_1", "Bash", {"command": "touch made"}), script.reply("done"))
    done = subprocess.run(
        [pi_claude, "-p", "go", "--output-format", "json", "--allowedTools", "Bash"],
        input="", capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert not (project / "made").exists()
    assert f"pi-claude: {broken}: invalid JSON" in done.stderr
    result = json.loads(done.stdout)
    assert [d["tool_name"] for d in result["permission_denials"]] == ["Bash"]
    sent = json.dumps(server.requests[1].json()["messages"])
    assert f"Claude settings: {broken}: invalid JSON" in sent
    assert broken.read_text() == '{"permissions": {"deny": ["Bash(touch:*)"]}'
