"""A session switch lets the session it leaves go before the next file is read."""

from __future__ import annotations

import gc
import weakref
from pathlib import Path
from typing import Any

import pytest

from pi_core.messages import AssistantMessage
from pi_core.session import jsonl, manager
from pi_core.testing import chat_stream
from tests.agent_session.conftest import Harness


async def test_the_left_sessions_messages_are_gone_when_the_next_file_is_read(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    harness.server.queue(chat_stream("one"), chat_stream("two"), chat_stream("three"))
    session = await harness.session()
    await session.prompt("first session")
    first = session.session_file
    assert first is not None
    await session.new_session()
    await session.prompt("second session")
    await session.prompt("again")  # a request that continues the history: prefixes are saved
    answers = [m for m in session.messages if isinstance(m, AssistantMessage)]
    left = [weakref.ref(message) for message in answers]
    del answers
    harness.events.clear()  # the test's own record of events holds the messages too
    alive_at_read: list[int] = []
    read = jsonl.read_session_file

    def read_and_look(path: Path) -> Any:
        gc.collect()
        alive_at_read.append(sum(ref() is not None for ref in left))
        return read(path)

    monkeypatch.setattr(manager, "read_session_file", read_and_look)
    assert (await session.switch_session(str(first)))["cancelled"] is False
    assert alive_at_read == [0]
    assert session.get_last_assistant_text() == "one"


async def test_a_switch_to_an_unreadable_file_keeps_the_transcript(
    harness: Harness, tmp_path: Path
) -> None:
    harness.server.queue(chat_stream("kept"))
    session = await harness.session()
    await session.prompt("stay here")
    before = [message.model_dump() for message in session.messages]
    broken = tmp_path / "not-a-session.jsonl"
    broken.write_text('{"type":"message","id":"x"}\n')
    with pytest.raises(jsonl.SessionFileError):
        await session.switch_session(str(broken))
    assert [message.model_dump() for message in session.messages] == before
    assert session.get_last_assistant_text() == "kept"
