"""The unmodified claude-agent-sdk drives pi-claude (as `cli_path`) against a loopback server."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

from claude_agent_sdk import (
    AssistantMessage,
    ClaudeAgentOptions,
    ClaudeSDKClient,
    HookMatcher,
    PermissionResultAllow,
    PermissionResultDeny,
    ResultMessage,
    StreamEvent,
    SystemMessage,
    TextBlock,
    ToolResultBlock,
    ToolUseBlock,
    UserMessage,
    query,
)

from pi_core.testing import FakeLLMServer


def options(pi_claude: str, project: Path, **extra: Any) -> ClaudeAgentOptions:
    """SDK options pointing at pi-claude, with stderr kept for failure messages."""
    return ClaudeAgentOptions(cli_path=pi_claude, cwd=str(project), **extra)


def tool_results(request_body: dict[str, Any]) -> list[dict[str, Any]]:
    """The tool_result blocks of the last user message the fake server received."""
    last = request_body["messages"][-1]
    return [b for b in last["content"] if isinstance(b, dict) and b.get("type") == "tool_result"]


def result_text(block: dict[str, Any]) -> str:
    content = block["content"]
    if isinstance(content, str):
        return content
    return "".join(part.get("text", "") for part in content)


async def prompt_stream(text: str) -> Any:
    """A one-message prompt stream (what can_use_tool needs: query() in streaming mode)."""
    yield {"type": "user", "message": {"role": "user", "content": text}}


async def test_one_shot_query_runs_bash(
    pi_claude: str, project: Path, server: FakeLLMServer, script: Any
) -> None:
    server.queue(
        script.call("toolu_1", "Bash", {"command": "echo hello-from-bash"}, text="Running it."),
        script.reply("All done."),
    )
    seen = [
        m
        async for m in query(
            prompt="say hello with bash",
            options=options(pi_claude, project, permission_mode="bypassPermissions"),
        )
    ]
    kinds = [type(m).__name__ for m in seen]
    assert kinds == [
        "SystemMessage",
        "AssistantMessage",
        "AssistantMessage",
        "UserMessage",
        "AssistantMessage",
        "ResultMessage",
    ]
    init = seen[0]
    assert isinstance(init, SystemMessage) and init.subtype == "init"
    assert init.data["cwd"] == str(project) and "Bash" in init.data["tools"]
    call = seen[2]
    assert isinstance(call, AssistantMessage)
    assert isinstance(call.content[0], ToolUseBlock) and call.content[0].name == "Bash"
    tool_result = seen[3]
    assert isinstance(tool_result, UserMessage) and isinstance(tool_result.content, list)
    block = tool_result.content[0]
    assert isinstance(block, ToolResultBlock) and "hello-from-bash" in str(block.content)
    result = seen[-1]
    assert isinstance(result, ResultMessage)
    assert (result.subtype, result.is_error, result.result) == ("success", False, "All done.")
    assert result.num_turns == 2 and result.session_id == init.data["session_id"]
    assert result.usage is not None and result.usage["output_tokens"] == 14
    sent = tool_results(server.requests[1].json())
    assert "hello-from-bash" in result_text(sent[0]) and sent[0]["tool_use_id"] == "toolu_1"


async def test_client_keeps_one_conversation_over_turns(
    pi_claude: str, project: Path, server: FakeLLMServer, script: Any
) -> None:
    server.queue(script.reply("First answer."), script.reply("Second answer."))
    async with ClaudeSDKClient(options(pi_claude, project)) as client:
        await client.query("first question")
        first = [m async for m in client.receive_response()]
        await client.query("second question")
        second = [m async for m in client.receive_response()]
    assert isinstance(first[-1], ResultMessage) and first[-1].result == "First answer."
    assert isinstance(second[-1], ResultMessage) and second[-1].result == "Second answer."
    assert first[-1].session_id == second[-1].session_id
    inits = [m for m in first + second if isinstance(m, SystemMessage) and m.subtype == "init"]
    assert len(inits) == 2  # system/init opens every turn
    history = server.requests[1].json()["messages"]
    texts = [json.dumps(m["content"]) for m in history]
    assert "first question" in texts[0] and "First answer." in texts[1]
    assert "second question" in texts[2]


async def test_can_use_tool_allow_with_updated_input(
    pi_claude: str, project: Path, server: FakeLLMServer, script: Any
) -> None:
    server.queue(script.call("toolu_a", "Bash", {"command": "touch made.txt"}), script.reply("ok"))
    asked: list[tuple[str, dict[str, Any]]] = []

    async def can_use_tool(name: str, tool_input: dict[str, Any], context: Any) -> Any:
        asked.append((name, dict(tool_input)))
        return PermissionResultAllow(updated_input={"command": "echo rewritten"})

    seen = [
        m
        async for m in query(
            prompt=prompt_stream("run it"),
            options=options(pi_claude, project, can_use_tool=can_use_tool),
        )
    ]
    assert asked == [("Bash", {"command": "touch made.txt"})]  # echo alone is read-only: not asked
    sent = tool_results(server.requests[1].json())
    assert result_text(sent[0]).strip() == "rewritten" and not sent[0].get("is_error")
    assert not (project / "made.txt").exists()
    result = seen[-1]
    assert isinstance(result, ResultMessage) and result.permission_denials == []


async def test_can_use_tool_deny_reaches_the_model_verbatim(
    pi_claude: str, project: Path, server: FakeLLMServer, script: Any
) -> None:
    target = project / "keep.txt"
    target.write_text("precious")
    server.queue(
        script.call("toolu_rm", "Bash", {"command": f"rm {target}"}), script.reply("understood")
    )

    async def can_use_tool(name: str, tool_input: dict[str, Any], context: Any) -> Any:
        return PermissionResultDeny(message="Not allowed to delete files")

    seen = [
        m
        async for m in query(
            prompt=prompt_stream("delete it"),
            options=options(pi_claude, project, can_use_tool=can_use_tool),
        )
    ]
    assert target.read_text() == "precious"
    sent = tool_results(server.requests[1].json())
    assert result_text(sent[0]) == "Not allowed to delete files" and sent[0]["is_error"] is True
    result = seen[-1]
    assert isinstance(result, ResultMessage)
    assert result.permission_denials == [
        {"tool_name": "Bash", "tool_use_id": "toolu_rm", "tool_input": {"command": f"rm {target}"}}
    ]


async def test_hook_callbacks_fire_in_order_with_their_fields(
    pi_claude: str, project: Path, server: FakeLLMServer, script: Any
) -> None:
    server.queue(script.call("toolu_h", "Bash", {"command": "echo hooked"}), script.reply("fin"))
    calls: list[dict[str, Any]] = []

    async def record(hook_input: Any, tool_use_id: str | None, context: Any) -> Any:
        calls.append(dict(hook_input))
        return {}

    events = ["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop"]
    hooks: Any = {name: [HookMatcher(matcher=None, hooks=[record])] for name in events}
    seen = [
        m
        async for m in query(
            prompt=prompt_stream("go"),
            options=options(pi_claude, project, hooks=hooks, permission_mode="bypassPermissions"),
        )
    ]
    assert [c["hook_event_name"] for c in calls] == events
    result = seen[-1]
    assert isinstance(result, ResultMessage)
    for call in calls:
        assert call["session_id"] == result.session_id
        assert call["cwd"] == str(project)
        assert call["transcript_path"].endswith(f"/{result.session_id}.jsonl")
        assert call["permission_mode"] == "bypassPermissions"
    start, submit, pre, post, stop = calls
    assert start["source"] == "startup" and submit["prompt"] == "go"
    assert pre["tool_name"] == "Bash" and pre["tool_input"] == {"command": "echo hooked"}
    assert pre["tool_use_id"] == "toolu_h" and post["tool_use_id"] == "toolu_h"
    assert post["tool_response"] == {
        "stdout": "hooked",
        "stderr": "",
        "interrupted": False,
        "isImage": False,
        "noOutputExpected": False,
    }
    assert stop["stop_hook_active"] is False and stop["last_assistant_message"] == "fin"


async def test_post_tool_use_gets_claudes_tool_response_objects(
    pi_claude: str, project: Path, server: FakeLLMServer, script: Any
) -> None:
    notes = project / "notes.txt"
    todos = [{"content": "Ship it", "status": "in_progress", "activeForm": "Shipping it"}]
    calls: list[tuple[str, dict[str, Any]]] = [
        ("Write", {"file_path": str(notes), "content": "alpha\nbeta\n"}),
        ("Read", {"file_path": str(notes)}),
        ("Edit", {"file_path": str(notes), "old_string": "beta", "new_string": "gamma"}),
        ("Glob", {"pattern": "*.txt"}),
        ("Grep", {"pattern": "gamma"}),
        ("Grep", {"pattern": "a", "output_mode": "count"}),
        ("TodoWrite", {"todos": todos}),
        ("Bash", {"command": "true"}),
    ]
    server.queue(
        *(script.call(f"toolu_{i}", name, args) for i, (name, args) in enumerate(calls)),
        script.reply("done"),
    )
    responses: list[Any] = []

    async def record(hook_input: Any, tool_use_id: str | None, context: Any) -> Any:
        responses.append(hook_input["tool_response"])
        return {}

    hooks: Any = {"PostToolUse": [HookMatcher(matcher=None, hooks=[record])]}
    seen = [
        m
        async for m in query(
            prompt=prompt_stream("work"),
            options=options(pi_claude, project, hooks=hooks, permission_mode="bypassPermissions"),
        )
    ]
    write, read, edit, glob, grep, count, todo, bash = responses
    assert write == {
        "type": "create",
        "filePath": str(notes),
        "content": "alpha\nbeta\n",
        "structuredPatch": [],
        "originalFile": None,
    }
    assert read == {
        "type": "text",
        "file": {
            "filePath": str(notes),
            "content": "alpha\nbeta",
            "numLines": 2,
            "startLine": 1,
            "totalLines": 2,
        },
    }
    assert edit["filePath"] == str(notes) and edit["replaceAll"] is False
    assert (edit["oldString"], edit["newString"]) == ("beta", "gamma")
    assert glob == {"durationMs": 0, "numFiles": 1, "filenames": ["notes.txt"], "truncated": False}
    assert grep == {"mode": "files_with_matches", "numFiles": 1, "filenames": ["notes.txt"]}
    assert count["mode"] == "count" and count["numFiles"] == 1 and count["numMatches"] == 2
    assert todo == {"oldTodos": [], "newTodos": todos}
    assert bash["stdout"] == "" and bash["interrupted"] is False
    users = [m for m in seen if isinstance(m, UserMessage) and m.tool_use_result is not None]
    assert [m.tool_use_result for m in users][:2] == [write, read]  # the stream says the same


async def test_a_pre_tool_use_hook_denies_the_call(
    pi_claude: str, project: Path, server: FakeLLMServer, script: Any
) -> None:
    marker = project / "ran.txt"
    server.queue(script.call("toolu_d", "Bash", {"command": f"touch {marker}"}), script.reply("ok"))

    async def deny(hook_input: Any, tool_use_id: str | None, context: Any) -> Any:
        return {
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "deny",
                "permissionDecisionReason": "touching is forbidden here",
            }
        }

    hooks: Any = {"PreToolUse": [HookMatcher(matcher="Bash", hooks=[deny])]}
    seen = [
        m
        async for m in query(
            prompt=prompt_stream("touch"),
            options=options(pi_claude, project, hooks=hooks, permission_mode="bypassPermissions"),
        )
    ]
    assert not marker.exists()
    sent = tool_results(server.requests[1].json())
    assert sent[0]["is_error"] is True
    assert result_text(sent[0]) == "PreToolUse:Bash hook error: touching is forbidden here"
    result = seen[-1]
    assert isinstance(result, ResultMessage) and len(result.permission_denials or []) == 1


async def test_set_permission_mode_and_set_model(
    pi_claude: str, project: Path, server: FakeLLMServer, script: Any
) -> None:
    server.queue(script.reply("one"), script.reply("two"))
    async with ClaudeSDKClient(options(pi_claude, project)) as client:
        await client.query("first")
        first = [m async for m in client.receive_response()]
        await client.set_permission_mode("acceptEdits")
        await client.set_model("claude-haiku-4-5")
        await client.query("second")
        second = [m async for m in client.receive_response()]
    init_before = next(m for m in first if isinstance(m, SystemMessage) and m.subtype == "init")
    init_after = next(m for m in second if isinstance(m, SystemMessage) and m.subtype == "init")
    assert init_before.data["permissionMode"] == "default"
    assert init_after.data["permissionMode"] == "acceptEdits"
    assert init_after.data["model"] == "anthropic/claude-haiku-4-5"
    assert server.requests[0].json()["model"] == "claude-sonnet-4-5"
    assert server.requests[1].json()["model"] == "claude-haiku-4-5"
    assert isinstance(second[-1], ResultMessage) and second[-1].result == "two"


async def test_interrupt_during_a_slow_stream_then_another_prompt(
    pi_claude: str, project: Path, server: FakeLLMServer, script: Any
) -> None:
    slow = script.reply(["Thinking ", "very ", "slowly"], pause_after_chunks=3)
    server.queue(slow, script.reply("Back again."))
    async with ClaudeSDKClient(
        options(pi_claude, project, include_partial_messages=True)
    ) as client:
        await client.query("take your time")
        seen: list[Any] = []
        async for message in client.receive_messages():
            seen.append(message)
            if isinstance(message, StreamEvent) and message.event["type"] == "content_block_delta":
                await client.interrupt()
            if isinstance(message, ResultMessage):
                break
        slow.resume()
        await client.query("and now?")
        after = [m async for m in client.receive_response()]
    interrupted = seen[-1]
    assert isinstance(interrupted, ResultMessage)
    assert interrupted.subtype == "error_during_execution" and interrupted.is_error
    notices = [
        m
        for m in seen
        if isinstance(m, UserMessage)
        and isinstance(m.content, list)
        and any(isinstance(b, TextBlock) and "interrupted" in b.text for b in m.content)
    ]
    assert len(notices) == 1
    final = after[-1]
    assert isinstance(final, ResultMessage)
    assert (final.subtype, final.result) == ("success", "Back again.")


async def test_resume_and_continue_keep_the_session_id(
    pi_claude: str, project: Path, server: FakeLLMServer, script: Any
) -> None:
    server.queue(script.reply("one"), script.reply("two"), script.reply("three"))

    async def run(**extra: Any) -> ResultMessage:
        seen = [m async for m in query(prompt="hi", options=options(pi_claude, project, **extra))]
        last = seen[-1]
        assert isinstance(last, ResultMessage)
        return last

    first = await run()
    resumed = await run(resume=first.session_id)
    continued = await run(continue_conversation=True)
    assert first.session_id == resumed.session_id == continued.session_id
    third_request = server.requests[2].json()["messages"]
    assert [m["role"] for m in third_request] == ["user", "assistant"] * 2 + ["user"]
    slug = "".join(c if c.isalnum() else "-" for c in str(project))
    transcript = Path.home() / ".claude" / "projects" / slug / f"{first.session_id}.jsonl"
    lines = [json.loads(line) for line in transcript.read_text().splitlines()]
    assert [entry["type"] for entry in lines] == ["user", "assistant"] * 3


async def test_fallback_model_takes_over_an_overloaded_turn(
    pi_claude: str, project: Path, server: FakeLLMServer, script: Any
) -> None:
    from pi_core.testing import FakeResponse

    agent = Path.home() / ".pi" / "agent"
    agent.mkdir(parents=True, exist_ok=True)
    retries_off = {"retry": {"enabled": False, "provider": {"maxRetries": 0}}}
    (agent / "settings.json").write_text(json.dumps(retries_off))
    body = {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}
    server.queue(FakeResponse.json_body(body, status=529), script.reply("from the fallback"))
    extra: Any = {"model": "sonnet", "fallback_model": "haiku"}
    seen = [m async for m in query(prompt="hi", options=options(pi_claude, project, **extra))]
    switched = [m for m in seen if isinstance(m, SystemMessage) and m.subtype == "model_fallback"]
    assert len(switched) == 1 and switched[0].data["trigger"] == "overloaded"
    result = seen[-1]
    assert isinstance(result, ResultMessage)
    assert (result.is_error, result.result) == (False, "from the fallback")
    assert server.requests[1].json()["model"] == "claude-haiku-4-5"


async def test_session_start_source_is_resume_under_resume_and_continue(
    pi_claude: str, project: Path, server: FakeLLMServer, script: Any
) -> None:
    server.queue(script.reply("one"), script.reply("two"), script.reply("three"))
    sources: list[str] = []

    async def record(hook_input: Any, tool_use_id: str | None, context: Any) -> Any:
        sources.append(hook_input["source"])
        return {}

    hooks: Any = {"SessionStart": [HookMatcher(matcher=None, hooks=[record])]}

    async def run(**extra: Any) -> ResultMessage:
        runs = query(prompt=prompt_stream("hi"), options=options(pi_claude, project, **extra))
        seen = [m async for m in runs]
        last = seen[-1]
        assert isinstance(last, ResultMessage)
        return last

    first = await run(hooks=hooks)
    await run(hooks=hooks, resume=first.session_id)
    await run(hooks=hooks, continue_conversation=True)
    assert sources == ["startup", "resume", "resume"]


async def test_the_transcript_file_follows_claude_codes_format(
    pi_claude: str, project: Path, server: FakeLLMServer, script: Any
) -> None:
    server.queue(
        script.call("toolu_t", "Bash", {"command": "echo t"}, text="Calling."), script.reply("ok")
    )
    seen = [
        m
        async for m in query(
            prompt="transcribe",
            options=options(pi_claude, project, permission_mode="bypassPermissions"),
        )
    ]
    result = seen[-1]
    assert isinstance(result, ResultMessage)
    slug = "".join(c if c.isalnum() else "-" for c in str(project))
    path = Path.home() / ".claude" / "projects" / slug / f"{result.session_id}.jsonl"
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert [entry["type"] for entry in lines] == [
        "user",
        "assistant",
        "assistant",
        "user",
        "assistant",
    ]
    assert lines[0]["parentUuid"] is None
    for previous, entry in itertools.pairwise(lines):
        assert entry["parentUuid"] == previous["uuid"]
    for entry in lines:
        assert entry["sessionId"] == result.session_id and entry["cwd"] == str(project)
        assert {"isSidechain", "userType", "version", "timestamp", "message"} <= entry.keys()
    assert lines[1]["message"]["id"] == lines[2]["message"]["id"]  # one line per block
    assert lines[3]["toolUseResult"]["stdout"].strip() == "t"
    assert lines[3]["sourceToolAssistantUUID"] == lines[2]["uuid"]
    assert lines[0]["message"] == {"role": "user", "content": "transcribe"}


async def test_a_settings_command_hook_exiting_2_blocks_the_call(
    pi_claude: str, project: Path, server: FakeLLMServer, script: Any
) -> None:
    marker = project / "touched.txt"
    command = 'cat > hook-input.json; echo "no touching here" >&2; exit 2'
    settings = {
        "hooks": {
            "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": command}]}]
        }
    }
    (project / ".claude").mkdir()
    (project / ".claude" / "settings.json").write_text(json.dumps(settings))
    server.queue(script.call("toolu_s", "Bash", {"command": f"touch {marker}"}), script.reply("ok"))
    seen = [
        m
        async for m in query(
            prompt=prompt_stream("touch it"),
            options=options(pi_claude, project, permission_mode="bypassPermissions"),
        )
    ]
    assert not marker.exists()
    sent = tool_results(server.requests[1].json())
    assert sent[0]["is_error"] is True
    assert result_text(sent[0]) == f"PreToolUse:Bash hook error: [{command}]: no touching here"
    hook_input = json.loads((project / "hook-input.json").read_text())
    assert hook_input["hook_event_name"] == "PreToolUse" and hook_input["tool_use_id"] == "toolu_s"
    assert hook_input["tool_input"] == {"command": f"touch {marker}"}
    result = seen[-1]
    assert isinstance(result, ResultMessage) and hook_input["session_id"] == result.session_id
    assert [d["tool_use_id"] for d in result.permission_denials or []] == ["toolu_s"]


def system_text(body: dict[str, Any]) -> str:
    system = body.get("system") or ""
    if isinstance(system, str):
        return system
    return "\n".join(part.get("text", "") for part in system)


async def test_system_prompt_replaces_and_append_extends_pis(
    pi_claude: str, project: Path, server: FakeLLMServer, script: Any
) -> None:
    server.queue(script.reply("a"), script.reply("b"), script.reply("c"))

    async def run(**extra: Any) -> None:
        async for _ in query(prompt="hi", options=options(pi_claude, project, **extra)):
            pass

    await run()
    await run(system_prompt="You are a terse test bot.")
    await run(system_prompt={"type": "preset", "preset": "claude_code", "append": "EXTRA RULE"})
    default, replaced, appended = (system_text(r.json()) for r in server.requests)
    assert default and "terse test bot" not in default
    assert replaced == "You are a terse test bot."
    assert appended.startswith(default.strip()[:200]) and appended.rstrip().endswith("EXTRA RULE")
