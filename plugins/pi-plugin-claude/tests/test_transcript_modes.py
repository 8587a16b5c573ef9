"""pi-claude's Claude-format transcripts are owner-only, like Claude Code's and pi's sessions."""

from __future__ import annotations

import stat
from pathlib import Path
from typing import Any

from claude_agent_sdk import ClaudeAgentOptions, ResultMessage, query

from pi_core.testing import FakeLLMServer


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


async def test_transcripts_are_0600_in_0700_folders(
    pi_claude: str, project: Path, server: FakeLLMServer, script: Any
) -> None:
    server.queue(script.reply("ok"))
    options = ClaudeAgentOptions(cli_path=pi_claude, cwd=str(project))
    seen = [m async for m in query(prompt="hello", options=options)]
    result = seen[-1]
    assert isinstance(result, ResultMessage)
    slug = "".join(c if c.isalnum() else "-" for c in str(project))
    folder = Path.home() / ".claude" / "projects" / slug
    path = folder / f"{result.session_id}.jsonl"
    assert path.read_text().strip()
    assert mode(path) == 0o600
    assert mode(folder) == 0o700
    assert mode(folder.parent) == 0o700
