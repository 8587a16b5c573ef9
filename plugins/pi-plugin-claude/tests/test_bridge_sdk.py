"""The compat plugin as pi-claude uses it: an SDK session with Claude's tools, settings and an
AskCallback, against the fake server."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pi_plugin_claude.bridge import ClaudeCompat
from pi_plugin_claude.permissions import (
    AskRequest,
    PermissionAllow,
    PermissionAnswer,
    PermissionDeny,
)
from pi_plugin_claude.profile import create_claude_tools
from pi_plugin_claude.runtime import ClaudeRuntime, create_claude_runtime

from pi_core import AgentSession, SessionManager, create_agent_session
from pi_core.testing import FakeLLMServer, chat_models_json, chat_stream


class Host:
    """Answers each ask from a script, and records what it was asked."""

    def __init__(self, *answers: PermissionAnswer) -> None:
        self.answers = list(answers)
        self.asked: list[AskRequest] = []

    async def __call__(self, request: AskRequest) -> PermissionAnswer:
        self.asked.append(request)
        return self.answers.pop(0)


@pytest.fixture
def server() -> Any:
    with FakeLLMServer() as running:
        yield running


@pytest.fixture
def project(tmp_path: Path, isolated_agent_dir: Path, server: FakeLLMServer) -> Path:
    (isolated_agent_dir / "models.json").write_text(json.dumps(chat_models_json(server.base_url)))
    cwd = tmp_path / "project"
    (cwd / ".claude").mkdir(parents=True)
    return cwd


async def open_session(cwd: Path, runtime: ClaudeRuntime) -> AgentSession:
    tools = create_claude_tools(str(cwd))
    return await create_agent_session(
        cwd=cwd,
        model="fake/fake-model",
        tools=[tool.name for tool in tools],
        custom_tools=tools,
        plugins=[ClaudeCompat(runtime)],
        session=SessionManager.in_memory(str(cwd)),
    )


def tool_results(server: FakeLLMServer, index: int) -> list[str]:
    body = server.requests[index].json()
    return [m["content"] for m in body["messages"] if m.get("role") == "tool"]


async def test_plan_mode_asks_the_host_for_writes_until_exit_plan_mode_is_approved(
    project: Path, server: FakeLLMServer
) -> None:
    host = Host(
        PermissionDeny("Plan first"),
        PermissionDeny("Keep planning"),
        PermissionAllow(),
        PermissionAllow(),
    )
    runtime = create_claude_runtime(project, permission_mode="plan", ask=host)
    session = await open_session(project, runtime)
    target = project / "out.txt"
    server.queue(
        chat_stream(tool_calls=[("Write", {"file_path": str(target), "content": "x"})]),
        chat_stream(tool_calls=[("ExitPlanMode", {"plan": "write out.txt"})]),
        chat_stream(tool_calls=[("ExitPlanMode", {"plan": "write out.txt, really"})]),
        chat_stream(tool_calls=[("Write", {"file_path": str(target), "content": "x"})]),
        chat_stream("written"),
    )
    await session.prompt("plan then write")
    assert tool_results(server, 1)[-1] == "Plan first"
    assert tool_results(server, 2)[-1] == "Keep planning"
    assert tool_results(server, 3)[-1].startswith("User has approved your plan.")
    assert tool_results(server, 4)[-1] == f"File created successfully at: {target}"
    assert target.read_text() == "x"
    asked = [(r.tool_name, r.decision.reason_type) for r in host.asked]
    assert asked == [
        ("Write", "mode"),  # plan mode hands the write to the host, as Claude Code 2.1 does
        ("ExitPlanMode", "mode"),
        ("ExitPlanMode", "mode"),
        ("Write", "default"),  # out of plan mode: asked like any other call
    ]
    assert host.asked[1].input == {"plan": "write out.txt"}
    assert runtime.gate.policy.mode == "default"
    assert [d.tool_name for d in runtime.gate.denials] == ["Write", "ExitPlanMode"]
    await session.shutdown()


async def test_plan_mode_without_a_host_refuses_writes(
    project: Path, server: FakeLLMServer
) -> None:
    runtime = create_claude_runtime(project, permission_mode="plan")
    session = await open_session(project, runtime)
    target = project / "out.txt"
    server.queue(
        chat_stream(tool_calls=[("Write", {"file_path": str(target), "content": "x"})]),
        chat_stream("ok"),
    )
    await session.prompt("write")
    assert tool_results(server, 1)[-1].startswith("Write is not allowed in plan mode")
    assert not target.exists()
    await session.shutdown()


async def test_the_host_can_rewrite_an_asked_call(project: Path, server: FakeLLMServer) -> None:
    host = Host(PermissionAllow(updated_input={"command": "echo from-host"}))
    runtime = create_claude_runtime(project, ask=host)
    session = await open_session(project, runtime)
    server.queue(chat_stream(tool_calls=[("Bash", {"command": "touch x"})]), chat_stream("ok"))
    await session.prompt("go")
    assert host.asked[0].input == {"command": "touch x"}
    assert tool_results(server, 1) == ["from-host"]
    assert not (project / "x").exists()
    await session.shutdown()


async def test_settings_rules_and_cli_rules_apply(project: Path, server: FakeLLMServer) -> None:
    (project / ".claude" / "settings.json").write_text(
        json.dumps({"permissions": {"allow": ["Bash(touch:*)"]}})
    )
    runtime = create_claude_runtime(project, disallowed_tools=["Bash(touch secret:*)"])
    session = await open_session(project, runtime)
    server.queue(
        chat_stream(tool_calls=[("Bash", {"command": "touch ok"})]),
        chat_stream(tool_calls=[("Bash", {"command": "touch secret"})]),
        chat_stream("done"),
    )
    await session.prompt("go")
    assert tool_results(server, 1)[-1] == "(Bash completed with no output)"
    assert tool_results(server, 2)[-1] == (
        "Permission to use Bash with command touch secret has been denied."
    )
    assert (project / "ok").exists() and not (project / "secret").exists()
    await session.shutdown()


async def test_sdk_hook_sources_join_settings_hooks(project: Path, server: FakeLLMServer) -> None:
    from pi_plugin_claude.hooks import HookReply

    seen: list[tuple[str, dict[str, Any]]] = []

    async def sdk_callbacks(
        event: str, payload: dict[str, Any], match: str | None
    ) -> list[HookReply]:
        seen.append((event, payload))
        if event != "PreToolUse":
            return []
        deny = {
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "deny",
                "permissionDecisionReason": "host says no",
            }
        }
        return [HookReply("hook_0", 0, output=deny)]

    runtime = create_claude_runtime(project, permission_mode="bypassPermissions")
    runtime.hooks.sources.append(sdk_callbacks)
    session = await open_session(project, runtime)
    server.queue(chat_stream(tool_calls=[("Bash", {"command": "ls"})]), chat_stream("ok"))
    await session.prompt("go")
    assert tool_results(server, 1) == ["PreToolUse:Bash hook error: host says no"]
    events = [event for event, _ in seen]
    assert events[:3] == ["SessionStart", "UserPromptSubmit", "PreToolUse"]
    assert "Stop" in events
    pre = dict(seen)["PreToolUse"]
    assert pre["tool_input"] == {"command": "ls"} and pre["permission_mode"] == "bypassPermissions"
    await session.shutdown()
    assert [event for event, _ in seen][-1] == "SessionEnd"


async def test_subagent_stop_feedback_joins_the_task_result(
    project: Path, server: FakeLLMServer
) -> None:
    log = project / "subagent-stop.json"
    command = f"cat > {log}; echo 'check the edge cases' >&2; exit 2"
    hooks = {"SubagentStop": [{"hooks": [{"type": "command", "command": command}]}]}
    (project / ".claude" / "settings.json").write_text(json.dumps({"hooks": hooks}))
    runtime = create_claude_runtime(project, permission_mode="bypassPermissions")
    session = await open_session(project, runtime)
    task = {"description": "Look", "prompt": "look around", "subagent_type": "general-purpose"}
    server.queue(
        chat_stream(tool_calls=[("Task", task)]),
        chat_stream("nothing to see"),  # the subagent
        chat_stream("ok"),
    )
    await session.prompt("go")
    assert tool_results(server, 2) == [
        "nothing to see\nSubagentStop hook feedback:\ncheck the edge cases"
    ]
    payload = json.loads(log.read_text())
    assert payload["hook_event_name"] == "SubagentStop"
    assert payload["agent_type"] == "general-purpose"
    await session.shutdown()


async def test_session_start_after_a_compaction_says_compact(
    project: Path, server: FakeLLMServer
) -> None:
    from pi_plugin_claude.hooks import HookReply

    sources: list[str] = []

    async def sdk_callbacks(
        event: str, payload: dict[str, Any], match: str | None
    ) -> list[HookReply]:
        if event == "SessionStart":
            sources.append(payload["source"])
            context = {
                "hookSpecificOutput": {
                    "hookEventName": "SessionStart",
                    "additionalContext": f"started by {payload['source']}",
                }
            }
            return [HookReply("hook_0", 0, output=context)]
        return []

    runtime = create_claude_runtime(project, permission_mode="bypassPermissions")
    runtime.hooks.sources.append(sdk_callbacks)
    session = await open_session(project, runtime)
    server.queue(chat_stream("one"), chat_stream("two"))
    await session.prompt("first")
    await session.prompt("second")
    server.queue(chat_stream("the summary"), chat_stream("after"))
    await session.compact()
    assert sources == ["startup", "compact"]
    await session.prompt("third")
    sent = json.dumps(server.requests[-1].json()["messages"])
    assert "SessionStart hook additional context: started by compact" in sent
    await session.shutdown()


async def test_session_start_of_a_resumed_runtime_says_resume(
    project: Path, server: FakeLLMServer
) -> None:
    log = project / "start.json"
    hooks = {"SessionStart": [{"matcher": "resume", "hooks": [
        {"type": "command", "command": f"cat > {log}"}]}]}  # fmt: skip
    (project / ".claude" / "settings.json").write_text(json.dumps({"hooks": hooks}))
    runtime = create_claude_runtime(project)
    runtime.resumed = True
    session = await open_session(project, runtime)
    assert json.loads(log.read_text())["source"] == "resume"
    await session.shutdown()


async def test_pre_compact_stdout_becomes_the_summary_instructions(
    project: Path, server: FakeLLMServer
) -> None:
    hook = {"type": "command", "command": "echo 'Keep the list of failing tests.'"}
    settings = {"hooks": {"PreCompact": [{"matcher": "", "hooks": [hook]}]}}
    (project / ".claude" / "settings.json").write_text(json.dumps(settings))
    runtime = create_claude_runtime(project, permission_mode="bypassPermissions")
    session = await open_session(project, runtime)
    server.queue(chat_stream("one"), chat_stream("two"))
    await session.prompt("first")
    await session.prompt("second")
    server.queue(chat_stream("the summary"))
    await session.compact("Mention the database.")
    summary_request = json.dumps(server.requests[-1].json()["messages"])
    assert "Mention the database." in summary_request
    assert "Keep the list of failing tests." in summary_request
    assert summary_request.index("Mention the database.") < summary_request.index(
        "Keep the list of failing tests."
    )
    await session.shutdown()
