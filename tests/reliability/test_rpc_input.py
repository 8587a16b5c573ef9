"""`pi --mode rpc` survives any line: deep nesting, lone surrogates, invalid UTF-8, huge lines.

Every line with an id gets a response carrying it, lines without one get a `parse` error, and the
process keeps serving: a `get_state` after the garbage still answers.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from pi_core.testing.rpc_fuzz import garbage_lines
from tests.cli.conftest import Cli
from tests.cli.rpc_script import RpcProcess

Start = Callable[..., RpcProcess]


def send_bytes(process: RpcProcess, data: bytes) -> None:
    assert process.process.stdin is not None
    process.process.stdin.write(data)
    process.process.stdin.flush()


def response_for(process: RpcProcess, request_id: str) -> dict[str, Any]:
    process.read_until(lambda r: r.get("type") == "response" and r.get("id") == request_id)
    return process.records[-1]


def still_serving(process: RpcProcess, request_id: str = "alive") -> dict[str, Any]:
    process.send({"id": request_id, "type": "get_state"})
    state = response_for(process, request_id)
    assert state["success"], state
    return state


@pytest.mark.parametrize("depth", [1_000, 10_000, 100_000])
def test_deeply_nested_line_gets_an_error_and_serving_goes_on(
    cli: Cli, rpc: Start, depth: int
) -> None:
    process = rpc("--no-session")
    nested = "[" * depth + "]" * depth
    process.send_raw(f'{{"id":"deep","type":"prompt","message":{nested}}}\n')
    answer = response_for(process, "deep")  # the id is kept although the line cannot be parsed
    assert answer["success"] is False
    assert answer["error"] == "Failed to parse command: nested too deeply"
    still_serving(process)
    assert "Traceback" not in process.close()


def test_lone_surrogate_name_is_refused_and_nothing_is_stored(cli: Cli, rpc: Start) -> None:
    process = rpc("--no-session")
    process.send_raw('{"id":"n","type":"set_session_name","name":"bad \\ud800 name"}\n')
    refused = response_for(process, "n")
    assert refused["success"] is False
    assert refused["command"] == "set_session_name"
    assert "surrogate" in refused["error"]
    assert "sessionName" not in still_serving(process)["data"]
    # A surrogate pair is valid Unicode and is accepted.
    process.send_raw('{"id":"ok","type":"set_session_name","name":"emoji \\ud83d\\ude00"}\n')
    assert response_for(process, "ok")["success"]
    assert still_serving(process, "after")["data"]["sessionName"] == "emoji \U0001f600"
    assert "Traceback" not in process.close()


def test_session_file_holding_a_lone_surrogate_name_still_opens(cli: Cli, rpc: Start) -> None:
    """pi's JSON.stringify writes a lone surrogate as an escape; such a file must still open."""
    session = cli.cwd / "named.jsonl"
    header = {"type": "session", "version": 3, "id": "0b6f0a52-5a6b-4c29-9d7e-8f1d4c3b2a10",
              "timestamp": "2026-11-01T10:00:00.000Z", "cwd": str(cli.cwd)}  # fmt: skip
    info = {"type": "session_info", "id": "a1b2c3d4", "parentId": None,
            "timestamp": "2026-11-01T10:00:01.000Z", "name": "bad \ud800 name"}  # fmt: skip
    session.write_text(json.dumps(header) + "\n" + json.dumps(info) + "\n")
    before = session.read_bytes()
    process = rpc("--session", str(session))
    state = still_serving(process)
    assert state["data"]["sessionName"] == "bad \ud800 name"  # the escape, read back as written
    assert "Traceback" not in process.close()
    assert session.read_bytes() == before


def test_invalid_utf8_and_a_huge_line_get_answers(cli: Cli, rpc: Start) -> None:
    process = rpc("--no-session")
    send_bytes(process, b'{"id":"u","type":"set_session_name","name":"caf\xe9 \xff"}\n')
    assert response_for(process, "u")["success"]  # undecodable bytes become U+FFFD, as in pi
    huge = "x" * 8_000_000
    process.send({"id": "big", "type": "set_session_name", "name": huge})
    assert response_for(process, "big")["success"]
    assert still_serving(process)["data"]["sessionName"] == huge
    assert "Traceback" not in process.close()


def test_fuzzed_lines_each_get_an_answer_and_the_server_survives(cli: Cli, rpc: Start) -> None:
    """A bounded run for the suite; benchmarks/rpc_fuzz.py runs the same generator longer."""
    process = rpc("--no-session")
    lines = garbage_lines(seed=1234, count=300)
    for line, _ in lines:
        send_bytes(process, line + b"\n")
    expected = {rid for _, rid in lines if rid is not None}
    waiting = set(expected)

    def all_answered(record: dict[str, Any]) -> bool:
        if record.get("type") == "response":
            waiting.discard(record.get("id"))
        return not waiting

    # Commands run concurrently, so answers come in any order; each id must come back.
    process.read_until(all_answered)
    still_serving(process, "final")
    assert "Traceback" not in process.close()
