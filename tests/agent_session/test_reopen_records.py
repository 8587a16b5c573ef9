"""Opening a saved session records a thinking level only when its branch has none (as pi)."""

from __future__ import annotations

import json
from pathlib import Path

from pi_core import AssistantMessage, TextContent, UserMessage
from pi_core.session.manager import SessionManager
from tests.agent_session.conftest import Harness


def _levels(path: Path) -> list[str]:
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    return [line["thinkingLevel"] for line in lines if line["type"] == "thinking_level_change"]


def _saved(harness: Harness, *, level: str | None) -> Path:
    manager = SessionManager.create(str(harness.cwd), harness.agent_dir / "sessions")
    if level is not None:
        manager.append_thinking_level_change(level)
    manager.append_message(UserMessage(content="before"))
    answer = [TextContent(text="earlier")]
    manager.append_message(AssistantMessage(content=answer, provider="fake", model="fake-model"))
    manager.close()
    assert manager.session_file is not None
    return manager.session_file


async def test_a_branch_with_a_thinking_level_gets_no_other(harness: Harness) -> None:
    path = _saved(harness, level="high")
    session = await harness.session(session=SessionManager.open(path), model=None)
    await session.shutdown()
    assert _levels(path) == ["high"]


async def test_a_branch_without_one_gets_the_level_in_effect(harness: Harness) -> None:
    path = _saved(harness, level=None)
    session = await harness.session(session=SessionManager.open(path), model=None)
    await session.shutdown()
    assert _levels(path) == [session.thinking_level]
