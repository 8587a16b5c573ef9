"""Replacing the default: docs/examples/keep_last_turns.py loaded with `-e`, and the default
standing aside whenever another plugin provides the compaction."""

from __future__ import annotations

import json
from pathlib import Path

from compaction_scenarios import user_text_of
from rpc_home import PiHome

from pi_core.testing import FakeResponse, RecordedRequest, chat_stream

EXAMPLE = Path(__file__).resolve().parents[3] / "docs" / "examples" / "keep_last_turns.py"


def test_the_example_keeps_the_last_turns_and_asks_no_model(home: PiHome) -> None:
    home.server.queue(*(chat_stream(f"Answer {n}.") for n in range(3)))
    rpc = home.start("-e", str(EXAMPLE))
    for n in range(3):
        rpc.ask({"type": "prompt", "message": f"Question {n}\nmore detail"})
        rpc.wait_event("agent_end")
    requests_before = len(home.server.requests)

    response = rpc.ask({"type": "compact"})

    assert response["success"] is True, response
    assert (
        response["data"]["summary"] == "1 earlier turn(s) were dropped. They asked:\n- Question 0"
    )
    assert response["data"]["details"] == {"droppedTurns": 1}
    assert len(home.server.requests) == requests_before  # no summary request
    messages = rpc.ask({"type": "get_messages"})["data"]["messages"]
    assert [m["role"] for m in messages] == [
        "compactionSummary", "user", "assistant", "user", "assistant",
    ]  # fmt: skip
    assert messages[1]["content"][0]["text"].startswith("Question 1")
    rpc.close()
    entries = [
        json.loads(line)
        for path in home.agent.glob("sessions/**/*.jsonl")
        for line in path.read_text().splitlines()
    ]
    (compaction,) = [e for e in entries if e["type"] == "compaction"]
    assert compaction["fromHook"] is True  # a plugin's: its details are not read as file lists


def test_with_too_few_turns_the_example_leaves_it_to_the_default(home: PiHome) -> None:
    home.settings(compaction={"keepRecentTokens": 5})
    home.server.queue(chat_stream("Only answer " + "w " * 40))

    def route(request: RecordedRequest) -> FakeResponse | None:
        text = user_text_of(request)
        return chat_stream("## Goal\nDefault summary.") if "<conversation>" in text else None

    home.server.route(route)
    rpc = home.start("-e", str(EXAMPLE))
    rpc.ask({"type": "prompt", "message": "Only question " + "q " * 40})
    rpc.wait_event("agent_end")

    response = rpc.ask({"type": "compact"})

    assert response["success"] is True, response
    # the one turn is split: the default summarized its beginning
    assert (
        "**Turn Context (split turn):**\n\n## Goal\nDefault summary." in response["data"]["summary"]
    )
    rpc.close()
