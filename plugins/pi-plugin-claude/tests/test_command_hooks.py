"""Command hooks as real shell scripts: exit 0 with JSON, exit 2, timeouts, plain output."""

from __future__ import annotations

import json
import stat
from pathlib import Path
from typing import Any

import pytest
from pi_plugin_claude.hooks import ClaudeHooks, HookConfig


def script(folder: Path, name: str, body: str) -> str:
    path = folder / name
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


def hooks_for(tmp_path: Path, event: str, *entries: tuple[str | None, str, float]) -> ClaudeHooks:
    settings: dict[str, Any] = {event: []}
    for matcher, command, timeout in entries:
        entry: dict[str, Any] = {
            "hooks": [{"type": "command", "command": command, "timeout": timeout}]
        }
        if matcher is not None:
            entry["matcher"] = matcher
        settings[event].append(entry)
    config = HookConfig.parse(settings)
    assert config.problems == []
    return ClaudeHooks(config, str(tmp_path), session_id="s-1", transcript_path="/t.jsonl")


async def test_the_hook_reads_the_event_json_on_stdin(tmp_path: Path) -> None:
    seen = tmp_path / "seen.json"
    command = script(tmp_path, "h.sh", f'cat > {seen}\necho "$CLAUDE_PROJECT_DIR" > {seen}.env\n')
    hooks = hooks_for(tmp_path, "PreToolUse", ("Bash", command, 10))
    outcome = await hooks.fire(
        "PreToolUse", {"tool_name": "Bash", "tool_input": {"command": "ls"}, "tool_use_id": "t1"}
    )
    assert not outcome.blocked
    payload = json.loads(seen.read_text())
    assert payload == {
        "session_id": "s-1", "transcript_path": "/t.jsonl", "cwd": str(tmp_path),
        "permission_mode": "default", "hook_event_name": "PreToolUse", "tool_name": "Bash",
        "tool_input": {"command": "ls"}, "tool_use_id": "t1",
    }  # fmt: skip
    assert Path(f"{seen}.env").read_text().strip() == str(tmp_path)


async def test_matchers_pick_the_hooks(tmp_path: Path) -> None:
    log = tmp_path / "log"
    hooks = hooks_for(
        tmp_path, "PreToolUse",
        ("Bash", f"echo bash >> {log}", 10), ("Edit|Write", f"echo edit >> {log}", 10),
        ("*", f"echo all >> {log}", 10), ("mcp__.*", f"echo mcp >> {log}", 10),
    )  # fmt: skip
    for tool in ("Bash", "Write", "Read", "mcp__s__t"):
        await hooks.fire("PreToolUse", {"tool_name": tool, "tool_input": {}})
    assert sorted(log.read_text().split()) == sorted(
        ["bash", "all", "edit", "all", "all", "mcp", "all"]
    )


async def test_exit_2_blocks_a_tool_call_with_stderr_for_the_model(tmp_path: Path) -> None:
    command = script(tmp_path, "deny.sh", "echo 'no rm here' >&2\nexit 2\n")
    hooks = hooks_for(tmp_path, "PreToolUse", (None, command, 10))
    outcome = await hooks.fire("PreToolUse", {"tool_name": "Bash", "tool_input": {}})
    assert outcome.blocked and outcome.permission_decision == "deny"
    assert outcome.reason == f"PreToolUse:Bash hook error: [{command}]: no rm here"


async def test_json_permission_decision_and_updated_input(tmp_path: Path) -> None:
    answer = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow",
              "updatedInput": {"command": "ls -a"}}}  # fmt: skip
    command = script(tmp_path, "allow.sh", f"echo '{json.dumps(answer)}'\n")
    hooks = hooks_for(tmp_path, "PreToolUse", (None, command, 10))
    outcome = await hooks.fire("PreToolUse", {"tool_name": "Bash", "tool_input": {}})
    assert not outcome.blocked
    assert outcome.permission_decision == "allow"
    assert outcome.updated_input == {"command": "ls -a"}


async def test_deny_beats_allow_across_hooks(tmp_path: Path) -> None:
    deny = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
            "permissionDecisionReason": "not today"}}  # fmt: skip
    allow = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"}}
    hooks = hooks_for(
        tmp_path, "PreToolUse",
        (None, f"echo '{json.dumps(allow)}'", 10), (None, f"echo '{json.dumps(deny)}'", 10),
    )  # fmt: skip
    outcome = await hooks.fire("PreToolUse", {"tool_name": "Bash", "tool_input": {}})
    assert outcome.permission_decision == "deny"
    assert outcome.reason == "PreToolUse:Bash hook error: not today"


async def test_a_hook_that_runs_too_long_is_killed_and_does_not_block(tmp_path: Path) -> None:
    marker = tmp_path / "finished"
    hooks = hooks_for(tmp_path, "PreToolUse", (None, f"sleep 30; touch {marker}", 0.5))
    outcome = await hooks.fire("PreToolUse", {"tool_name": "Bash", "tool_input": {}})
    assert not outcome.blocked
    assert outcome.replies[0].timed_out
    assert "timed out after 0.5 seconds" in outcome.user_messages[0]
    assert not marker.exists()


async def test_plain_stdout_goes_to_the_model_only_for_prompt_and_start(tmp_path: Path) -> None:
    prompt = hooks_for(tmp_path, "UserPromptSubmit", (None, "echo 'it is Tuesday'", 10))
    outcome = await prompt.fire("UserPromptSubmit", {"prompt": "hi"})
    assert outcome.additional_context == ["UserPromptSubmit hook success: it is Tuesday"]
    post = hooks_for(tmp_path, "PostToolUse", (None, "echo 'not json {'", 10))
    result = await post.fire("PostToolUse", {"tool_name": "Bash", "tool_input": {}})
    assert result.additional_context == [] and not result.blocked


async def test_other_exit_codes_are_shown_to_the_user_and_do_not_block(tmp_path: Path) -> None:
    hooks = hooks_for(tmp_path, "PreToolUse", (None, "echo oops >&2; exit 1", 10))
    outcome = await hooks.fire("PreToolUse", {"tool_name": "Bash", "tool_input": {}})
    assert not outcome.blocked
    assert outcome.user_messages == ["PreToolUse:Bash hook error: [echo oops >&2; exit 1]: oops"]


@pytest.mark.parametrize(
    ("event", "fields", "blocks"),
    [
        ("UserPromptSubmit", {"prompt": "x"}, True),
        ("Stop", {"stop_hook_active": False}, True),
        ("SubagentStop", {"stop_hook_active": False}, True),
        ("PreCompact", {"trigger": "manual", "custom_instructions": ""}, True),
        ("PostToolUse", {"tool_name": "Bash"}, False),
        ("SessionStart", {"source": "startup"}, False),
        ("SessionEnd", {"reason": "other"}, False),
        ("Notification", {"message": "m", "notification_type": "idle"}, False),
    ],
)
async def test_exit_2_on_each_event(
    tmp_path: Path, event: str, fields: dict[str, Any], blocks: bool
) -> None:
    hooks = hooks_for(tmp_path, event, (None, "echo 'stop that' >&2; exit 2", 10))
    outcome = await hooks.fire(event, fields)
    assert outcome.blocked is blocks
    if blocks:
        assert outcome.reason == "stop that"
    if event == "PostToolUse":
        assert outcome.additional_context == [
            "PostToolUse:Bash hook error: [echo 'stop that' >&2; exit 2]: stop that"
        ]


async def test_json_decision_block_and_continue_false(tmp_path: Path) -> None:
    block = {"decision": "block", "reason": "tests are red", "continue": False,
             "stopReason": "halt", "systemMessage": "heads up"}  # fmt: skip
    hooks = hooks_for(tmp_path, "Stop", (None, f"echo '{json.dumps(block)}'", 10))
    outcome = await hooks.fire("Stop", {"stop_hook_active": False})
    assert outcome.blocked and outcome.reason == "tests are red"
    assert outcome.stop and outcome.stop_reason == "halt"
    assert outcome.user_messages == ["heads up"]


async def test_additional_context_json(tmp_path: Path) -> None:
    answer = {
        "hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "lint ok"}
    }
    hooks = hooks_for(tmp_path, "PostToolUse", ("Bash", f"echo '{json.dumps(answer)}'", 10))
    outcome = await hooks.fire("PostToolUse", {"tool_name": "Bash", "tool_input": {}})
    assert outcome.additional_context == ["PostToolUse:Bash hook additional context: lint ok"]


def test_bad_hook_entries_are_reported() -> None:
    config = HookConfig.parse({
        "Bogus": [{"hooks": [{"type": "command", "command": "x"}]}],
        "Stop": [{"hooks": [{"type": "prompt", "prompt": "x"}, {"type": "command"}]}],
    })  # fmt: skip
    assert config.problems == [
        "hooks: unknown event 'Bogus'; ignored",
        "hooks.Stop: only command hooks are supported",
        "hooks.Stop: a hook has no command",
    ]
    assert config.events == {}
