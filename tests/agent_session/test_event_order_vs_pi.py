"""Our session emits pi 0.73.1's events in pi's order for the same scripted conversations.

The transcripts were recorded from pi's RPC mode by fixtures/record_pi_events.py against the same
fake-server answers (`response` lines are RPC framing, not session events).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pi_core.testing import FakeResponse, chat_error, chat_stream
from tests.agent_session.conftest import Harness

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def pi_events(name: str) -> list[dict[str, Any]]:
    lines = (FIXTURES / f"{name}.pi-rpc.jsonl").read_text().splitlines()
    return [e for e in map(json.loads, lines) if e.get("type") != "response"]


def shape(events: list[dict[str, Any]]) -> list[str]:
    """Event types, with the kind of each streaming update and each message's role.

    A run of deltas counts once: how many a provider emits is its own business (pi's, for one,
    sends an empty tool-call delta for the call's header chunk).
    """
    out: list[str] = []
    for event in events:
        kind = event["type"]
        if kind == "message_update":
            kind += ":" + event["assistantMessageEvent"]["type"]
        elif kind in ("message_start", "message_end"):
            kind += ":" + event["message"]["role"]
        if kind.endswith("_delta") and out and out[-1] == kind:
            continue
        out.append(kind)
    return out


async def ours(
    harness: Harness, answers: list[FakeResponse], commands: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    harness.server.queue(*answers)
    session = await harness.session(persist=False)
    for command in commands:
        if command["type"] == "prompt":
            await session.prompt(command["message"])
        elif command["type"] == "set_session_name":
            session.set_session_name(command["name"])
    return [event.model_dump(by_alias=True, mode="json") for event in harness.events]


SCENARIOS = {
    "tool-round": (
        lambda: [chat_stream(tool_calls=[("ls", {})]), chat_stream("There is one file.")],
        [{"type": "prompt", "message": "What is here?"}],
    ),
    "retry-529": (
        # pi's script: the transport absorbs two 529s, the third reaches the session's auto-retry
        lambda: [*(chat_error(529, "Overloaded") for _ in range(3)), chat_stream("Recovered.")],
        [{"type": "prompt", "message": "Hello"}],
    ),
    "two-prompts-and-name": (
        lambda: [chat_stream("First."), chat_stream("Second.")],
        [
            {"type": "prompt", "message": "One"},
            {"type": "prompt", "message": "Two"},
            {"type": "set_session_name", "name": "named"},
        ],
    ),
}


SETTINGS = {"retry-529": {"retry": {"baseDelayMs": 10}}}
"""Settings as the recording had them (the harness turns the transport's retries off)."""


@pytest.mark.parametrize("name", sorted(SCENARIOS))
async def test_same_events_in_the_same_order_as_pi(harness: Harness, name: str) -> None:
    (harness.cwd / "a.txt").write_text("a\n")
    if name in SETTINGS:
        (harness.agent_dir / "settings.json").write_text(json.dumps(SETTINGS[name]))
    answers, commands = SCENARIOS[name]
    mine = await ours(harness, answers(), commands)
    theirs = pi_events(name)
    assert shape(mine) == shape(theirs)
    retry_pi = [e for e in theirs if e["type"].startswith("auto_retry")]
    retry_ours = [e for e in mine if e["type"].startswith("auto_retry")]
    assert [sorted(e) for e in retry_ours] == [sorted(e) for e in retry_pi]
    if name == "retry-529":
        assert len(harness.server.requests) == 4  # 3 by the transport, 1 by the session
    assert [e.get("name") for e in mine if e["type"] == "session_info_changed"] == [
        e.get("name") for e in theirs if e["type"] == "session_info_changed"
    ]
