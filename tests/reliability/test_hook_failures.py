"""A `tool_call` gate that raises anything, or hangs, blocks the tool and leaves the session usable.

Each case runs the real `pi --mode rpc` with a gate plugin loaded by `-e`, against the fake server:
the model asks for `bash`, the gate misbehaves, the tool must not run, the model must get an error
result for the call (no orphaned tool call in the next request), and the process keeps serving.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from pi_core.testing import chat_stream
from tests.cli.conftest import Cli
from tests.cli.rpc_script import RpcProcess

Start = Callable[..., RpcProcess]

GATE = """
import asyncio

from pi_core import hookimpl


@hookimpl
async def tool_call(event, ctx):
    ctx.ui.notify("gate entered", "info")
    {body}
"""

RAISES = {
    "SystemExit": "raise SystemExit(3)",
    "KeyboardInterrupt": "raise KeyboardInterrupt()",
    "CancelledError": "raise asyncio.CancelledError()",
    "RuntimeError": "raise RuntimeError('gate broke')",
}


def start(cli: Cli, rpc: Start, body: str) -> tuple[RpcProcess, Path]:
    """Start pi with a gate plugin running `body`; the path the tool would create if it ran."""
    gate = cli.cwd / "gate.py"
    gate.write_text(GATE.format(body=body))
    return rpc("--no-session", "-e", str(gate)), cli.cwd / "ran"


def response_for(process: RpcProcess, request_id: str) -> dict[str, Any]:
    process.read_until(lambda r: r.get("type") == "response" and r.get("id") == request_id)
    return process.records[-1]


@pytest.mark.parametrize("raised", list(RAISES))
def test_a_gate_raising_anything_blocks_the_tool_and_the_session_goes_on(
    cli: Cli, rpc: Start, raised: str
) -> None:
    cli.server.queue(
        chat_stream(tool_calls=[("bash", {"command": "touch ran"})]),
        chat_stream("The tool was blocked."),
        chat_stream("Still here."),
    )
    process, marker = start(cli, rpc, RAISES[raised])
    process.send({"id": "p", "type": "prompt", "message": "make a file"})
    process.read_until(lambda r: r.get("type") == "agent_end")

    errors = [r for r in process.records if r.get("type") == "extension_error"]
    assert errors and errors[0]["event"] == "tool_call" and raised in errors[0]["error"]
    results = [r for r in process.records if r.get("type") == "tool_execution_end"]
    assert len(results) == 1 and results[0]["isError"] is True
    assert "blocked" in results[0]["result"]["content"][0]["text"]
    assert not marker.exists(), "the tool ran although its gate failed"

    # The blocked call has its error result in the next request: nothing orphaned.
    sent = cli.server.requests[1].json()["messages"]
    call_ids = [c["id"] for m in sent for c in m.get("tool_calls") or []]
    result_ids = [m["tool_call_id"] for m in sent if m["role"] == "tool"]
    assert call_ids and call_ids == result_ids

    process.send({"id": "again", "type": "prompt", "message": "are you there?"})
    assert response_for(process, "again")["success"]
    process.read_until(lambda r: r.get("type") == "agent_end")
    assert "Traceback" not in process.close()


def test_abort_cancels_a_gate_that_hangs_and_the_tool_stays_blocked(cli: Cli, rpc: Start) -> None:
    cli.server.queue(
        chat_stream(tool_calls=[("bash", {"command": "touch ran"})]),
        chat_stream("Answer after the abort."),
    )
    process, marker = start(cli, rpc, "await asyncio.Event().wait()")
    process.send({"id": "p", "type": "prompt", "message": "make a file"})
    process.read_until(
        lambda r: r.get("type") == "extension_ui_request" and r.get("message") == "gate entered"
    )
    process.send({"id": "stop", "type": "abort"})
    seen: set[str] = set()

    def answered_and_ended(record: dict[str, Any]) -> bool:
        if record.get("type") == "agent_end" or record.get("id") == "stop":
            seen.add(str(record.get("type")))
        return seen == {"agent_end", "response"}

    process.read_until(answered_and_ended)  # in either order: the abort ends the run at once
    assert next(r for r in process.records if r.get("id") == "stop")["success"]
    assert not marker.exists()
    ends = [r for r in process.records if r.get("type") == "tool_execution_end"]
    assert all(end["isError"] for end in ends)

    process.send({"id": "again", "type": "prompt", "message": "next"})
    assert response_for(process, "again")["success"]
    process.read_until(lambda r: r.get("type") == "agent_end")
    sent = cli.server.requests[-1].json()["messages"]
    call_ids = [c["id"] for m in sent for c in m.get("tool_calls") or []]
    result_ids = [m["tool_call_id"] for m in sent if m["role"] == "tool"]
    assert call_ids == result_ids
    assert "Traceback" not in process.close()
