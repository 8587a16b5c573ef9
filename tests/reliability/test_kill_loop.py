"""kill -9 at random points of a scripted RPC session: nothing the client saw is lost, and the
session resumes and answers every time."""

from __future__ import annotations

import json
import os
import random
import signal
from collections.abc import Callable
from typing import Any

from pi_core.testing import chat_stream
from tests.cli.conftest import Cli
from tests.cli.rpc_script import RpcProcess

Start = Callable[..., RpcProcess]
KILL_POINTS = ["message_end", "tool_execution_start", "tool_execution_end", "turn_end"]


def texts_in(messages: list[dict[str, Any]]) -> list[str]:
    """Each message as one comparable string: its role and its text or tool calls."""
    result = []
    for message in messages:
        content = message.get("content")
        if isinstance(content, str):
            body = content
        else:
            body = "|".join(
                block.get("text") or f"{block.get('name')}:{json.dumps(block.get('arguments'))}"
                for block in content or []
                if block.get("type") in ("text", "toolCall")
            )
        result.append(f"{message['role']}:{body}")
    return result


def run_until_killed(
    cli: Cli, rpc: Start, round_number: int, kill_at: str, kill_after: int
) -> list[str]:
    """Prompt once (a tool call, then an answer); SIGKILL pi at the chosen event.

    Returns the messages the client saw completed before the kill.
    """
    cli.server.queue(
        chat_stream(tool_calls=[("bash", {"command": f"echo round {round_number}"})]),
        chat_stream(f"Round {round_number} done."),
    )
    process = rpc("--continue")
    process.send({"id": "p", "type": "prompt", "message": f"round {round_number}"})
    seen: list[dict[str, Any]] = []
    count = 0

    def kill_point(record: dict[str, Any]) -> bool:
        nonlocal count
        if record.get("type") == "message_end":
            seen.append(record["message"])
        if record.get("type") == kill_at:
            count += 1
        return count >= kill_after or record.get("type") == "agent_end"

    process.read_until(kill_point)
    os.kill(process.process.pid, signal.SIGKILL)
    process.process.wait(timeout=10)
    cli.server.discard_queued()  # answers the killed run never asked for
    return texts_in(seen)


def test_kill_9_loop_loses_nothing_seen_and_always_resumes(cli: Cli, rpc: Start) -> None:
    rng = random.Random(99)
    # Round 0 runs to the end: pi writes nothing before the first answer, so the file exists
    # from here on and every message is appended as it ends.
    seen_so_far = run_until_killed(cli, rpc, 0, "agent_end", kill_after=1)
    for round_number in range(1, 7):
        kill_at = rng.choice(KILL_POINTS)
        seen_so_far += run_until_killed(
            cli, rpc, round_number, kill_at, kill_after=rng.randint(1, 2)
        )
        # Reopen: every message the client saw completed is in the session, in order.
        process = rpc("--continue")
        process.send({"id": "m", "type": "get_messages"})
        process.read_until(lambda r: r.get("id") == "m")
        stored = texts_in(process.records[-1]["data"]["messages"])
        missing = [text for text in seen_so_far if text not in stored]
        assert not missing, f"round {round_number}, killed at {kill_at}: lost {missing}"
        process.close()
    assert len(cli.sessions()) == 1

    # After all the kills the session still answers.
    cli.server.queue(chat_stream("Still alive."))
    process = rpc("--continue")
    process.send({"id": "last", "type": "prompt", "message": "are you there?"})
    process.read_until(lambda r: r.get("type") == "agent_end")
    assert texts_in([process.records[-1]["messages"][-1]]) == ["assistant:Still alive."]
    assert "Traceback" not in process.close()
