"""pi-claude's command line: Claude Code's flags, -p output formats, errors and exit codes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from pi_plugin_claude.options import UsageError, parse_argv, split_list

from pi_core.testing import FakeLLMServer


def run(pi_claude: str, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [pi_claude, *args],
        input=stdin if stdin is not None else "",
        capture_output=True,
        text=True,
        timeout=120,
    )


def lines(out: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in out.splitlines() if line.startswith("{")]


def user(text: str) -> str:
    return json.dumps({"type": "user", "message": {"role": "user", "content": text}}) + "\n"


def test_both_flag_forms_parse_the_same() -> None:
    spaced = parse_argv(
        ["--resume", "abc", "--setting-sources", "user,project", "--max-turns", "3"]
    )
    joined = parse_argv(["--resume=abc", "--setting-sources=user,project", "--max-turns=3"])
    assert spaced == joined
    assert (joined.resume, joined.setting_sources, joined.max_turns) == (
        "abc",
        ["user", "project"],
        3,
    )


def test_the_sdks_argv_parses() -> None:
    argv = [
        "--output-format", "stream-json", "--verbose", "--system-prompt", "",
        "--disallowedTools", "WebSearch", "--model", "claude-sonnet-4-5",
        "--fallback-model", "claude-sonnet-4", "--permission-prompt-tool", "stdio",
        "--permission-mode", "acceptEdits", "--resume=SESSION", "--add-dir", "/w2",
        "--setting-sources=user,project,local", "--allowedTools", "Bash(npm run test:*),Read",
        "--include-partial-messages", "--mcp-config", '{"mcpServers": {}}',
        "--max-thinking-tokens", "1024", "--tools", "", "--fork-session",
        "--input-format", "stream-json",
    ]  # fmt: skip
    options = parse_argv(argv)
    assert options.allowed_tools == ["Bash(npm run test:*)", "Read"]
    assert options.disallowed_tools == ["WebSearch"]
    assert options.tools == [] and options.system_prompt == ""
    assert options.mcp_configs == ['{"mcpServers": {}}']
    assert options.permission_mode == "acceptEdits" and options.fork_session


def test_list_values_keep_specifiers_whole() -> None:
    assert split_list("Bash(git diff:*), Edit(src/**) Read") == [
        "Bash(git diff:*)",
        "Edit(src/**)",
        "Read",
    ]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--frobnicate"], "unknown option '--frobnicate'"),
        (["--max-turns", "many"], "needs a whole number"),
        (["--permission-mode", "yolo"], "expected one of"),
        (["--model"], "needs a value"),
        (["--verbose=yes"], "takes no value"),
    ],
)
def test_bad_argv_is_a_usage_error(argv: list[str], message: str) -> None:
    with pytest.raises(UsageError, match=message):
        parse_argv(argv)


def test_unknown_flag_exits_1_with_a_clear_message(pi_claude: str) -> None:
    done = run(pi_claude, "-p", "hi", "--no-such-flag")
    assert done.returncode == 1
    assert "unknown option '--no-such-flag'" in done.stderr and done.stdout == ""


def test_stream_json_with_print_needs_verbose(pi_claude: str) -> None:
    done = run(pi_claude, "-p", "hi", "--output-format", "stream-json")
    assert done.returncode == 1
    assert "--output-format=stream-json requires --verbose" in done.stderr


def test_print_text_and_json(
    pi_claude: str, project: Path, server: FakeLLMServer, script: Any
) -> None:
    server.queue(script.reply("Plain answer."), script.reply("JSON answer."))
    text = run(pi_claude, "-p", "question")
    assert (text.returncode, text.stdout) == (0, "Plain answer.\n")
    as_json = run(pi_claude, "-p", "question", "--output-format=json")
    result = json.loads(as_json.stdout)
    assert as_json.returncode == 0
    assert (result["type"], result["subtype"], result["result"]) == (
        "result",
        "success",
        "JSON answer.",
    )


def test_api_error_is_an_error_result_and_exit_1(
    pi_claude: str, project: Path, server: FakeLLMServer, script: Any
) -> None:
    server.queue(script.error(400, "prompt is malformed"))
    done = run(
        pi_claude, "--output-format", "stream-json", "--verbose", "--input-format", "stream-json",
        stdin=user("hi"),
    )  # fmt: skip
    assert done.returncode == 1
    messages = lines(done.stdout)
    assert [m["type"] for m in messages] == ["system", "assistant", "result"]
    assert messages[1]["message"]["model"] == "<synthetic>"
    result = messages[-1]
    assert result["is_error"] is True and result["result"].startswith("API Error: 400")
    assert "prompt is malformed" in result["result"] and result["api_error_status"] == 400


def test_queued_prompts_each_get_a_result_and_eof_exits_0(
    pi_claude: str, project: Path, server: FakeLLMServer, script: Any
) -> None:
    server.queue(script.reply("one"), script.reply("two"), script.reply("three"))
    stdin = user("a") + '{"type":"keep_alive"}\n' + user("b") + user("c")
    done = run(
        pi_claude, "--output-format", "stream-json", "--verbose", "--input-format", "stream-json",
        stdin=stdin,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    results = [m["result"] for m in lines(done.stdout) if m["type"] == "result"]
    assert results == ["one", "two", "three"]


def test_partial_messages_stream_anthropic_events(
    pi_claude: str, project: Path, server: FakeLLMServer, script: Any
) -> None:
    server.queue(script.reply(["Hel", "lo"]))
    done = run(
        pi_claude, "--output-format", "stream-json", "--verbose", "--input-format", "stream-json",
        "--include-partial-messages", stdin=user("hi"),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    events = [m["event"] for m in lines(done.stdout) if m["type"] == "stream_event"]
    assert [e["type"] for e in events] == [
        "message_start",
        "content_block_start",
        "content_block_delta",
        "content_block_delta",
        "content_block_stop",
        "message_delta",
        "message_stop",
    ]
    assert "".join(e["delta"]["text"] for e in events if e["type"] == "content_block_delta") == (
        "Hello"
    )


def test_max_turns_stops_with_error_max_turns(
    pi_claude: str, project: Path, server: FakeLLMServer, script: Any
) -> None:
    server.queue(script.call("toolu_m", "Bash", {"command": "echo 1"}), script.reply("never"))
    done = run(
        pi_claude, "-p", "loop", "--output-format", "json", "--max-turns", "1",
        "--permission-mode", "bypassPermissions",
    )  # fmt: skip
    result = json.loads(done.stdout)
    assert result["subtype"] == "error_max_turns" and done.returncode == 1
    assert len(server.requests) == 1


def test_resume_of_an_unknown_session_is_an_error(pi_claude: str, project: Path) -> None:
    done = run(pi_claude, "-p", "hi", "--resume", "3f0c8a4e-0000-4000-8000-000000000000")
    assert done.returncode == 1
    assert "No conversation found with session ID: 3f0c8a4e" in done.stderr


def test_session_id_and_fork_session(
    pi_claude: str, project: Path, server: FakeLLMServer, script: Any
) -> None:
    chosen = "5d3e2b1a-1111-4222-8333-444455556666"
    server.queue(script.reply("first"), script.reply("forked"))
    first = json.loads(
        run(pi_claude, "-p", "x", "--output-format", "json", "--session-id", chosen).stdout
    )
    assert first["session_id"] == chosen
    forked = json.loads(
        run(
            pi_claude, "-p", "y", "--output-format", "json", "--resume", chosen, "--fork-session"
        ).stdout
    )
    assert forked["session_id"] != chosen and forked["result"] == "forked"
    history = server.requests[1].json()["messages"]
    assert [m["role"] for m in history] == ["user", "assistant", "user"]


def test_sessions_are_pi_sessions_too(
    pi_claude: str, project: Path, server: FakeLLMServer, script: Any
) -> None:
    server.queue(script.reply("stored"))
    result = json.loads(run(pi_claude, "-p", "keep me", "--output-format", "json").stdout)
    sessions = list(
        (Path.home() / ".pi" / "agent" / "sessions").rglob(f"*_{result['session_id']}.jsonl")
    )
    assert len(sessions) == 1
    entries = [json.loads(line) for line in sessions[0].read_text().splitlines()]
    assert entries[0]["type"] == "session" and entries[0]["cwd"] == str(project)
    roles = [e["message"]["role"] for e in entries if e["type"] == "message"]
    assert roles == ["user", "assistant"]


def test_mcp_config_reaches_the_mcp_plugin(
    pi_claude: str, project: Path, server: FakeLLMServer, script: Any, monkeypatch: Any
) -> None:
    monkeypatch.setenv("MCP_CONNECT_TIMEOUT_MS", "60000")  # -p waits this long for servers
    demo = Path(__file__).parents[2] / "pi-plugin-mcp" / "tests" / "servers" / "demo_server.py"
    config = {"mcpServers": {"demo": {"command": sys.executable, "args": [str(demo), "stdio"]}}}
    server.queue(script.reply("listed"))
    done = run(
        pi_claude, "-p", "tools?", "--output-format", "stream-json", "--verbose",
        "--mcp-config", json.dumps(config),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    init = lines(done.stdout)[0]
    assert any(name.startswith("mcp__demo__") for name in init["tools"]), init["tools"]
    sent_tools = [tool["name"] for tool in server.requests[0].json()["tools"]]
    assert any(name.startswith("mcp__demo__") for name in sent_tools)
