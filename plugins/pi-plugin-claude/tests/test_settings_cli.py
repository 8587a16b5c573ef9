"""Claude settings in plain `pi -p` (`claudeSettings: true`): hooks and permission rules act."""

from __future__ import annotations

import json
import stat
from pathlib import Path
from typing import Any

import pytest
from claude_pi import Pi

from pi_core.testing import chat_stream


def hook(command: str, matcher: str | None = None, timeout: float = 30) -> dict[str, Any]:
    entry: dict[str, Any] = {"hooks": [{"type": "command", "command": command, "timeout": timeout}]}
    if matcher is not None:
        entry["matcher"] = matcher
    return entry


def script(folder: Path, name: str, body: str) -> str:
    path = folder / name
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


@pytest.fixture
def claude_pi(pi: Pi) -> Pi:
    pi.settings(toolProfile="claude", claudeSettings=True)
    return pi


def call_and_finish(pi: Pi, name: str, **arguments: Any) -> str:
    """The model calls one tool, then answers; return the tool result the second request held."""
    start = len(pi.server.requests)
    pi.call(name, **arguments)
    pi.queue(chat_stream("done"))
    done = pi.run("go")
    assert done.returncode == 0, done.stderr
    results = pi.tool_results(start + 1)
    assert len(results) == 1
    return results[0]


def test_a_pre_tool_use_hook_exiting_2_blocks_with_stderr(claude_pi: Pi, tmp_path: Path) -> None:
    command = script(tmp_path, "guard.sh", "echo 'rm is not allowed' >&2\nexit 2\n")
    claude_pi.claude_settings({"hooks": {"PreToolUse": [hook(command, "Bash")]},
                               "permissions": {"defaultMode": "bypassPermissions"}})  # fmt: skip
    text = call_and_finish(claude_pi, "Bash", command="rm -rf build")
    assert text == f"PreToolUse:Bash hook error: [{command}]: rm is not allowed"


def test_a_hook_can_rewrite_the_input(claude_pi: Pi) -> None:
    answer = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow",
              "updatedInput": {"command": "echo rewritten"}}}  # fmt: skip
    claude_pi.claude_settings(
        {"hooks": {"PreToolUse": [hook(f"echo '{json.dumps(answer)}'", "Bash")]}}
    )
    # the hook's allow skips the permission check: `touch` would otherwise need approval
    assert call_and_finish(claude_pi, "Bash", command="touch x") == "rewritten"
    assert not (claude_pi.cwd / "x").exists()


def test_deny_rules_and_asking_without_a_ui(claude_pi: Pi) -> None:
    claude_pi.claude_settings({"permissions": {"deny": ["Bash(rm:*)"]}})
    assert call_and_finish(claude_pi, "Bash", command="rm -rf build") == (
        "Permission to use Bash with command rm -rf build has been denied."
    )
    assert call_and_finish(claude_pi, "Bash", command="touch made") == (
        "Claude requested permissions to use Bash, but you haven't granted it yet."
    )
    assert not (claude_pi.cwd / "made").exists()
    assert call_and_finish(claude_pi, "Bash", command="echo read-only") == "read-only"


def test_local_settings_allow_what_project_settings_ask(claude_pi: Pi) -> None:
    claude_pi.claude_settings({"permissions": {"allow": ["Bash(touch:*)"]}}, "settings.local.json")
    assert call_and_finish(claude_pi, "Bash", command="touch made") == (
        "(Bash completed with no output)"
    )
    assert (claude_pi.cwd / "made").exists()


def test_plan_mode_refuses_writes(claude_pi: Pi) -> None:
    claude_pi.claude_settings({"permissions": {"defaultMode": "plan"}})
    text = call_and_finish(claude_pi, "Write", file_path="plan.txt", content="x")
    assert text.startswith("Write is not allowed in plan mode")
    assert not (claude_pi.cwd / "plan.txt").exists()
    assert call_and_finish(claude_pi, "ExitPlanMode", plan="p") == (
        "Claude requested permissions to use ExitPlanMode, but you haven't granted it yet."
    )


def test_post_tool_use_context_joins_the_result(claude_pi: Pi) -> None:
    answer = {
        "hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "lint ok"}
    }
    claude_pi.claude_settings({"hooks": {"PostToolUse": [hook(f"echo '{json.dumps(answer)}'")]}})
    text = call_and_finish(claude_pi, "Bash", command="echo hi")
    assert text == "hi\nPostToolUse:Bash hook additional context: lint ok"


def test_user_prompt_submit_exit_2_erases_the_prompt(claude_pi: Pi) -> None:
    claude_pi.claude_settings(
        {"hooks": {"UserPromptSubmit": [hook("echo 'no secrets' >&2; exit 2")]}}
    )
    done = claude_pi.run("my password is hunter2")
    assert done.returncode == 0, done.stderr
    assert claude_pi.server.requests == []
    assert "no secrets" in done.stderr


def test_prompt_and_session_start_context_reach_the_model(claude_pi: Pi) -> None:
    claude_pi.claude_settings({"hooks": {
        "UserPromptSubmit": [hook("echo 'today is Tuesday'")],
        "SessionStart": [hook("echo 'branch main'", "startup")],
    }})  # fmt: skip
    claude_pi.queue(chat_stream("ok"))
    done = claude_pi.run("hello")
    assert done.returncode == 0, done.stderr
    sent = json.dumps(claude_pi.request(0)["messages"])
    assert "UserPromptSubmit hook success: today is Tuesday" in sent
    assert "SessionStart hook success: branch main" in sent


def test_a_stop_hook_block_sends_the_model_back(claude_pi: Pi, tmp_path: Path) -> None:
    # block once (when stop_hook_active is false), then let the agent stop
    command = script(
        tmp_path, "stop.sh",
        'if grep -q \'"stop_hook_active": false\'; then\n'
        '  echo \'{"decision": "block", "reason": "run the tests first"}\'\nfi\n',
    )  # fmt: skip
    claude_pi.claude_settings({"hooks": {"Stop": [hook(command)]}})
    claude_pi.queue(chat_stream("finished"), chat_stream("tests ran"))
    done = claude_pi.run("work")
    assert done.returncode == 0, done.stderr
    assert len(claude_pi.server.requests) == 2
    sent = json.dumps(claude_pi.request(1)["messages"])
    assert "Stop hook feedback:\\nrun the tests first" in sent
