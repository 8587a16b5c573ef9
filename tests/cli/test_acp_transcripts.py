"""The transcript checks of the acpx tests catch what they are for (acp_golden, acp_wire)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from tests.cli.acp_golden import FOLDER, check_golden, normalise
from tests.cli.acp_wire import invalid_agent_messages


def golden(name: str) -> list[dict[str, Any]]:
    """A recorded transcript, as stored."""
    return list(json.loads((FOLDER / f"{name}.json").read_text()))


def first(transcript: list[dict[str, Any]], sender: str, text: str) -> dict[str, Any]:
    """The first message of `sender` whose JSON contains `text`."""
    return next(e["message"] for e in transcript if e["from"] == sender and text in json.dumps(e))


def indices(transcript: list[dict[str, Any]], sender: str, answers: bool) -> list[int]:
    """Where `sender`'s answers (or its requests and notifications) are."""
    return [
        i
        for i, e in enumerate(transcript)
        if e["from"] == sender and ("method" not in e["message"]) == answers
    ]


def test_the_stored_transcripts_are_valid_acp() -> None:
    for path in sorted(FOLDER.glob("*.json")):
        assert invalid_agent_messages(golden(path.stem)) == [], path.name


def test_a_message_outside_the_schema_is_reported() -> None:
    transcript = golden("allow")
    first(transcript, "agent", "agent_message_chunk")["params"]["update"]["sessionUpdate"] = "x"
    del first(transcript, "agent", "stopReason")["result"]["stopReason"]
    assert len(invalid_agent_messages(transcript)) == 2


def test_a_changed_agent_message_fails_the_comparison() -> None:
    transcript = golden("allow")
    chunk = first(transcript, "agent", "agent_message_chunk")
    chunk["params"]["update"]["content"]["text"] = "Something else."
    with pytest.raises(AssertionError, match="agent's messages differ"):
        check_golden("allow", transcript)


def test_answers_may_come_in_either_order_but_requests_may_not() -> None:
    transcript = golden("cancel")
    # the client's answers to terminal/wait_for_exit and terminal/kill, as they came
    waited = next(i for i in indices(transcript, "client", True)
                  if "SIGTERM" in json.dumps(transcript[i]))  # fmt: skip
    killed = next(i for i in indices(transcript, "client", True) if i > waited)
    swapped = copy.deepcopy(transcript)
    swapped[waited], swapped[killed] = transcript[killed], transcript[waited]
    check_golden("cancel", swapped)
    calls = indices(transcript, "agent", False)
    reordered = copy.deepcopy(transcript)
    reordered[calls[1]], reordered[calls[2]] = transcript[calls[2]], transcript[calls[1]]
    with pytest.raises(AssertionError, match="agent's messages differ"):
        check_golden("cancel", reordered)


def test_ids_folders_and_times_are_normalised(tmp_path: Path) -> None:
    session, tool = "01a21cd8-c79f-763b-89c6-08222607fa3d", "call_f85267877f"
    recorded = [
        {"from": "client", "message": {"jsonrpc": "2.0", "id": 1, "method": "session/list",
                                       "params": {"cwd": f"{tmp_path}/project"}}},
        {"from": "agent", "message": {"jsonrpc": "2.0", "id": 1, "result": {"sessions": [
            {"sessionId": session, "cwd": f"{tmp_path}/project", "updatedAt": "2026-11-27"}]}}},
        {"from": "agent", "message": {"jsonrpc": "2.0", "method": "session/update", "params": {
            "sessionId": session, "update": {"sessionUpdate": "tool_call", "toolCallId": tool,
                                             "title": session}}}},
    ]  # fmt: skip
    text = json.dumps(normalise(recorded, tmp_path))
    assert str(tmp_path) not in text and session not in text and tool not in text
    assert '"<tmp>/project"' in text and '"<time>"' in text
    assert text.count('"<session-1>"') == 3 and '"<tool-1>"' in text
