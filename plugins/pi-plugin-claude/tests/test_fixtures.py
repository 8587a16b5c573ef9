"""pi-claude's stream-json sequence matches the real Claude Code CLI's, recorded as fixtures.

The fixtures in fixtures/claude_code were recorded by `record.py` (beside them) from Claude Code
run against the loopback server with the same scenario. Ids, timings and text differ; the
sequence of messages, their types, subtypes and content block kinds, and the top-level fields
hosts read must not.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

FIXTURES = Path(__file__).parent / "fixtures" / "claude_code"
sys.path.insert(0, str(FIXTURES))

from scenarios import SCENARIOS, fake_server  # noqa: E402

# Fields the SDKs read from each message type (the recorded CLI sends more: see the fixtures).
HOST_FIELDS = {
    "system": {"type", "subtype", "cwd", "session_id", "tools", "model", "permissionMode", "uuid"},
    "assistant": {"type", "message", "parent_tool_use_id", "session_id", "uuid"},
    "user": {"type", "message", "parent_tool_use_id", "session_id", "uuid", "tool_use_result"},
    "result": {
        "type",
        "subtype",
        "is_error",
        "duration_ms",
        "duration_api_ms",
        "num_turns",
        "result",
        "session_id",
        "total_cost_usd",
        "usage",
        "permission_denials",
        "uuid",
    },
}


def shape(message: dict[str, Any]) -> tuple[Any, ...]:
    """What must match: type, subtype, and the kinds of the content blocks."""
    body = message.get("message") or {}
    content = body.get("content")
    kinds = tuple(b.get("type") for b in content) if isinstance(content, list) else None
    return (message["type"], message.get("subtype"), kinds)


def run_pi_claude(pi_claude: str, scenario: dict[str, Any], home: Path, project: Path) -> list[Any]:
    with fake_server(scenario, "Bash") as server:
        env = dict(os.environ)
        env.update(
            HOME=str(home),
            ANTHROPIC_BASE_URL=server.base_url,
            ANTHROPIC_API_KEY="fake",
        )
        env.pop("PI_CODING_AGENT_DIR", None)
        env.pop("CLAUDE_CODE_SDK_READS_SESSION_STATE", None)
        stdin = "".join(
            json.dumps({"type": "user", "message": {"role": "user", "content": p}}) + "\n"
            for p in scenario["prompts"]
        )
        done = subprocess.run(
            [pi_claude, *scenario["argv"]],
            cwd=project,
            env=env,
            input=stdin,
            capture_output=True,
            text=True,
            timeout=120,
        )
    assert done.returncode == scenario.get("exit", 0), done.stderr
    return [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_message_sequence_matches_claude_code(name: str, pi_claude: str, tmp_path: Path) -> None:
    recorded = [json.loads(line) for line in (FIXTURES / f"{name}.jsonl").read_text().splitlines()]
    home, project = tmp_path / "home", tmp_path / "proj"
    home.mkdir()
    project.mkdir()
    ours = run_pi_claude(pi_claude, SCENARIOS[name], home, project)
    assert [shape(m) for m in ours] == [shape(m) for m in recorded]
    for mine, theirs in zip(ours, recorded, strict=True):
        wanted = HOST_FIELDS[theirs["type"]] & theirs.keys()
        assert wanted <= mine.keys(), f"{theirs['type']} lacks {wanted - mine.keys()}"
    session_ids = {m["session_id"] for m in ours}
    assert len(session_ids) == 1  # one session across every prompt, as Claude Code
    transcript_matches_claude_code(name, home, project, session_ids.pop())


def transcript_matches_claude_code(name: str, home: Path, project: Path, session_id: str) -> None:
    """The transcript's conversation lines: same kinds in the same order, Claude's fields."""
    recorded = [
        json.loads(line)
        for line in (FIXTURES / f"{name}.transcript.jsonl").read_text().splitlines()
    ]
    slug = "".join(c if c.isalnum() else "-" for c in str(project.resolve()))
    path = home / ".claude" / "projects" / slug / f"{session_id}.jsonl"
    ours = [json.loads(line) for line in path.read_text().splitlines()]
    assert [shape(m) for m in ours] == [shape(m) for m in recorded]
    for mine, theirs in zip(ours, recorded, strict=True):
        assert theirs.keys() <= mine.keys(), f"{theirs['type']} lacks {theirs.keys() - mine.keys()}"
        assert mine["sessionId"] == session_id
        if "toolUseResult" in theirs:
            assert theirs["toolUseResult"].keys() <= mine["toolUseResult"].keys()
