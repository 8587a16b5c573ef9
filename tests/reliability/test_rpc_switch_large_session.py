"""`pi --mode rpc` switching between two copies of the 1 MB version-1 session and prompting on each.

The switch migrates and rewrites each file (line by line into a temporary file, then renamed) and
lets the session it leaves go first; the second session's request must be exactly the first's (the
same history), so nothing of the first leaks into it and the caches dropped on the way are rebuilt.
"""

from __future__ import annotations

import json
from pathlib import Path

from pi_core.session.jsonl import encode_line
from pi_core.testing import chat_stream
from tests.cli.conftest import Cli
from tests.cli.rpc_script import RpcProcess
from tests.reliability.test_rpc_input import Start, response_for

LARGE = Path(__file__).parents[1] / "fixtures" / "sessions" / "large-session.jsonl"


def _copy(cli: Cli, name: str) -> Path:
    """A copy of the fixture whose header names the project (a missing cwd is refused)."""
    header, rest = LARGE.read_bytes().split(b"\n", 1)
    fields = json.loads(header)
    fields["cwd"] = str(cli.cwd)
    target = cli.cwd / name
    target.write_bytes(json.dumps(fields).encode() + b"\n" + rest)
    return target


def _switch_and_prompt(process: RpcProcess, path: Path, tag: str) -> None:
    process.send({"id": f"s-{tag}", "type": "switch_session", "sessionPath": str(path)})
    assert response_for(process, f"s-{tag}")["success"]
    process.send({"id": f"p-{tag}", "type": "prompt", "message": "Summarize where we are"})
    process.read_until(lambda r: r.get("type") == "agent_end", timeout=60)


def test_two_switches_to_the_1mb_session_send_the_same_request(cli: Cli, rpc: Start) -> None:
    first, second = _copy(cli, "first.jsonl"), _copy(cli, "second.jsonl")
    cli.server.queue(chat_stream("first answer"), chat_stream("second answer"))
    process = rpc()
    process.send({"id": "c", "type": "set_auto_compaction", "enabled": False})
    assert response_for(process, "c")["success"]
    _switch_and_prompt(process, first, "1")
    _switch_and_prompt(process, second, "2")
    assert "Traceback" not in process.close()

    bodies = [request.body for request in cli.server.requests]
    assert len(bodies) == 2
    assert len(json.loads(bodies[0])["messages"]) > 800
    assert bodies[1] == bodies[0]
    for path, answer in ((first, "first answer"), (second, "second answer")):
        lines = path.read_bytes().splitlines(keepends=True)
        entries = [json.loads(line) for line in lines]
        assert entries[0]["version"] == 3
        assert all("id" in entry for entry in entries)
        assert b"".join(lines) == b"".join(encode_line(entry) for entry in entries)
        assert entries[-1]["message"]["content"][0]["text"] == answer
    assert sorted(p.name for p in cli.cwd.iterdir()) == ["first.jsonl", "second.jsonl"]
