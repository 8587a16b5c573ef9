"""The scripted RPC conversation gives pi 0.73.1's responses and events, in pi's order."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from pi_core.testing import FakeLLMServer, console_script
from tests.cli.rpc_conversation import answers, argv, prepare, steps
from tests.cli.rpc_script import RpcProcess

pytestmark = pytest.mark.slow

RECORDED = Path(__file__).resolve().parent / "fixtures" / "rpc-conversation.pi.jsonl"


def shape(records: list[dict[str, Any]]) -> list[str]:
    """Record kinds in order; a run of deltas or tool updates counts once (timing decides it)."""
    out: list[str] = []
    for record in records:
        kind = record["type"]
        if kind == "agent_settled":
            continue  # newer pi's event, not in the 0.73.1 recording (tests: test_rpc_settled.py)
        if kind == "response":
            kind += f":{record['command']}:{record['success']}"
        elif kind == "message_update":
            kind += ":" + record["assistantMessageEvent"]["type"]
        elif kind in ("message_start", "message_end"):
            kind += ":" + record["message"]["role"]
        if (kind.endswith("_delta") or kind == "tool_execution_update") and out and out[-1] == kind:
            continue
        out.append(kind)
    return out


def responses(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [r for r in records if r["type"] == "response"]


@pytest.fixture(scope="module")
def conversation(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    pi = console_script("pi")
    root = tmp_path_factory.mktemp("rpc")
    with FakeLLMServer() as server:
        _agent, cwd, env, gate = prepare(root, server.base_url, python=True)
        server.queue(*answers())
        process = RpcProcess(argv(pi, root), cwd, {**os.environ, **env})
        records = process.run(steps(gate))
        stderr = process.close()
    assert "Traceback" not in stderr, stderr
    return records


def test_same_records_in_the_same_order_as_pi(conversation: list[dict[str, Any]]) -> None:
    recorded = [json.loads(line) for line in RECORDED.read_text().splitlines()]
    assert shape(conversation) == shape(recorded)


def test_every_response_carries_the_same_fields_as_pi(conversation: list[dict[str, Any]]) -> None:
    recorded = [json.loads(line) for line in RECORDED.read_text().splitlines()]
    ours, theirs = responses(conversation), responses(recorded)
    assert [sorted(r) for r in ours] == [sorted(r) for r in theirs]
    for mine, pis in zip(ours, theirs, strict=True):
        assert mine["id"] == pis["id"]
        if isinstance(pis.get("data"), dict) and mine["command"] not in ("get_state",):
            assert sorted(mine["data"]) == sorted(pis["data"]), mine["command"]
    state, pi_state = (next(r for r in rs if r["command"] == "get_state") for rs in (ours, theirs))
    assert set(state["data"]) == set(pi_state["data"])
    assert sorted(state["data"]["model"]) == sorted(pi_state["data"]["model"])


def test_the_conversation_itself_matches(conversation: list[dict[str, Any]]) -> None:
    recorded = [json.loads(line) for line in RECORDED.read_text().splitlines()]

    def answer(records: list[dict[str, Any]], command: str, index: int = 0) -> Any:
        return [r for r in records if r.get("command") == command][index].get("data")

    for records in (conversation, recorded):
        roles = [m["role"] for m in answer(records, "get_messages")["messages"]]
        assert roles[0] == "compactionSummary"
        assert answer(records, "fork") == {"text": "Run the slow command", "cancelled": False}
        assert answer(records, "get_messages", 1) == {"messages": []}
        assert answer(records, "compact")["summary"] == "Summary of the story so far."
    ours_roles = [m["role"] for m in answer(conversation, "get_messages")["messages"]]
    pi_roles = [m["role"] for m in answer(recorded, "get_messages")["messages"]]
    assert ours_roles == pi_roles
    texts = [m["text"] for m in answer(conversation, "get_fork_messages")["messages"]]
    assert texts == [m["text"] for m in answer(recorded, "get_fork_messages")["messages"]]
