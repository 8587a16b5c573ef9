"""What the model is offered: whole-tool deny rules remove tools; `--max-thinking-tokens`."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

from cc_recording import claude_code

from pi_core.testing import FakeLLMServer


def run(pi_claude: str, *args: str) -> list[dict[str, Any]]:
    """`pi-claude -p hi --output-format stream-json --verbose args…`: its stream-json lines."""
    done = subprocess.run(
        [pi_claude, "-p", "hi", "--output-format", "stream-json", "--verbose", *args],
        input="", capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines() if line.strip()]


def offered(server: FakeLLMServer) -> list[str]:
    """The tool names of the first request."""
    return [tool["name"] for tool in server.requests[0].json()["tools"]]


def test_disallowed_tools_are_not_offered(
    pi_claude: str, project: Path, server: FakeLLMServer, script: Any
) -> None:
    server.queue(script.reply("ok"))
    recorded = claude_code("disallowed_tools")
    lines = run(pi_claude, *recorded["argv"])
    names = offered(server)
    for tool in ("Bash", "WebFetch", "Read", "Edit"):
        assert (tool in names) == (tool in recorded["tools"]), tool
    init = next(line for line in lines if line.get("subtype") == "init")
    assert "Bash" not in init["tools"] and "Read" in init["tools"]


def test_a_settings_deny_of_a_whole_tool_removes_it_too(
    pi_claude: str, project: Path, server: FakeLLMServer, script: Any
) -> None:
    (project / ".claude").mkdir()
    (project / ".claude" / "settings.json").write_text(
        json.dumps({"permissions": {"deny": ["Write"]}})
    )
    server.queue(script.reply("ok"))
    run(pi_claude)
    names = offered(server)
    assert "Write" not in names and "Edit" in names


def test_a_deny_rule_with_a_specifier_keeps_the_tool_offered(
    pi_claude: str, project: Path, server: FakeLLMServer, script: Any
) -> None:
    server.queue(script.reply("ok"))
    recorded = claude_code("disallowed_with_specifier")
    run(pi_claude, *recorded["argv"])
    assert "Bash" in offered(server) and "Bash" in recorded["tools"]


def thinking(server: FakeLLMServer) -> tuple[dict[str, Any], int]:
    """The first request's `thinking` and `max_tokens`."""
    body = server.requests[0].json()
    return body["thinking"], body["max_tokens"]


def test_max_thinking_tokens_is_the_exact_budget(
    pi_claude: str, project: Path, server: FakeLLMServer, script: Any
) -> None:
    server.queue(script.reply("ok"))
    recorded = claude_code("thinking_budget")
    run(pi_claude, "--model", "claude-sonnet-4-5", *recorded["argv"])
    budget, max_tokens = thinking(server)
    assert budget["type"] == recorded["thinking"]["type"] == "enabled"
    assert budget["budget_tokens"] == recorded["thinking"]["budget_tokens"] == 5000
    assert max_tokens > 5000


def test_a_budget_past_max_tokens_is_capped_one_below_it(
    pi_claude: str, project: Path, server: FakeLLMServer, script: Any
) -> None:
    server.queue(script.reply("ok"))
    recorded = claude_code("thinking_budget_capped")
    run(pi_claude, "--model", "claude-sonnet-4-5", *recorded["argv"])
    budget, max_tokens = thinking(server)
    assert recorded["thinking"]["budget_tokens"] == recorded["max_tokens"] - 1
    assert budget["budget_tokens"] == max_tokens - 1


def test_max_thinking_tokens_zero_sends_no_thinking(
    pi_claude: str, project: Path, server: FakeLLMServer, script: Any
) -> None:
    server.queue(script.reply("ok"))
    run(pi_claude, "--model", "claude-sonnet-4-5", "--max-thinking-tokens", "0")
    assert server.requests[0].json().get("thinking", {}).get("type") != "enabled"
