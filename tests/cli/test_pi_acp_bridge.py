"""The community ACP bridge `pi-acp` (npm) drives our `pi --mode rpc`, end to end.

An ACP client (JSON-RPC on stdio, tests/cli/acp_stdio.py) talks to pi-acp, which runs our `pi`
(PI_ACP_PI_COMMAND) against the loopback fake model. pi-acp asks for the thinking levels at
`session/new` and answers `session/prompt` only on `agent_settled`. The scenarios are those acpx
drives against `pi acp` (test_acpx_client.py) where pi-acp has them: pi-acp asks no permission
for a tool call itself, so "allow" and "deny" are a pi gate's question that pi-acp forwards.
Node.js and pi-acp are the pinned ones of tests/node (node_clients.py).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from pi_core.testing import chat_models_json, chat_stream, console_script
from tests.cli.acp_stdio import AcpProcess
from tests.cli.conftest import Cli
from tests.cli.node_clients import NodeClients, node_clients

__all__ = ["node_clients"]  # the fixture, used by name

GATE_PLUGIN = """
from pi_core import hookimpl
from pi_core.events import BashToolCallEvent, ToolCallResult


@hookimpl
async def tool_call(event, ctx):
    if not isinstance(event, BashToolCallEvent):
        return None
    if await ctx.ui.confirm("Run this command?", event.input.command):
        return None
    return ToolCallResult(block=True, reason="the user said no")
"""


@pytest.fixture(scope="session")
def pi_acp(node_clients: NodeClients) -> list[str]:
    """The command that runs pi-acp: the pinned Node.js and pi-acp of tests/node."""
    return [str(node_clients.node), str(node_clients.pi_acp)]


@contextmanager
def start_bridge(cli: Cli, pi_acp: list[str]) -> Iterator[AcpProcess]:
    """pi-acp running our `pi`, initialized."""
    env = {**cli.env, "PI_ACP_PI_COMMAND": console_script("pi")}
    process = AcpProcess(pi_acp, cli.cwd, env)
    try:
        answer = process.request("initialize", {"protocolVersion": 1, "clientCapabilities": {}})
        assert answer["protocolVersion"] == 1
        yield process
    finally:
        process.close()


@pytest.fixture
def bridge(cli: Cli, pi_acp: list[str]) -> Iterator[AcpProcess]:
    """pi-acp running our `pi`, initialized."""
    with start_bridge(cli, pi_acp) as process:
        yield process


def new_session(process: AcpProcess, cwd: Path) -> str:
    """Open a session in `cwd`; return its id."""
    answer = process.request("session/new", {"cwd": str(cwd), "mcpServers": []})
    return str(answer["sessionId"])


def test_a_prompt_with_a_tool_call_ends_the_turn(cli: Cli, bridge: AcpProcess) -> None:
    (cli.cwd / "notes.txt").write_text("the notes\n")
    cli.server.queue(
        chat_stream(tool_calls=[("read", {"path": "notes.txt"})]),
        chat_stream("It says: the notes."),
    )
    session = new_session(bridge, cli.cwd)
    answer = bridge.request(
        "session/prompt",
        {"sessionId": session, "prompt": [{"type": "text", "text": "Read notes.txt"}]},
    )
    assert answer["stopReason"] == "end_turn"
    kinds = [u["sessionUpdate"] for u in bridge.updates]
    calls = [u for u in bridge.updates if u["sessionUpdate"] == "tool_call"]
    assert calls and calls[0]["title"] == "read" and calls[0]["kind"] == "read"
    updates = [u for u in bridge.updates if u["sessionUpdate"] == "tool_call_update"]
    finished = [u for u in updates if u.get("status") == "completed"]
    assert finished and finished[-1]["toolCallId"] == calls[0]["toolCallId"]
    assert "the notes" in str(finished[-1]["content"])
    text = "".join(
        u["content"]["text"]
        for u in bridge.updates[kinds.index("tool_call") :]
        if u["sessionUpdate"] == "agent_message_chunk"
    )
    assert text == "It says: the notes."
    assert len(cli.server.requests) == 2


def test_a_tool_runs_without_a_permission_request(cli: Cli, bridge: AcpProcess) -> None:
    """pi-acp has no permission step of its own: what pi's gates allow runs unasked."""
    cli.server.queue(
        chat_stream(tool_calls=[("bash", {"command": "echo ran > proof.txt"})]),
        chat_stream("Done."),
    )
    session = new_session(bridge, cli.cwd)
    prompt = {"sessionId": session, "prompt": [{"type": "text", "text": "Write the proof"}]}
    assert bridge.request("session/prompt", prompt)["stopReason"] == "end_turn"
    assert (cli.cwd / "proof.txt").read_text() == "ran\n"
    assert bridge.permission_requests == []


def test_session_new_offers_the_models_thinking_levels(cli: Cli, pi_acp: list[str]) -> None:
    models = chat_models_json(cli.server.base_url, reasoning=True)
    (cli.agent_dir / "models.json").write_text(json.dumps(models))
    with start_bridge(cli, pi_acp) as bridge:
        answer = bridge.request("session/new", {"cwd": str(cli.cwd), "mcpServers": []})
    thinking = next(o for o in answer["configOptions"] if o["category"] == "thought_level")
    assert [o["value"] for o in thinking["options"]] == ["off", "minimal", "low", "medium", "high"]


def test_cancel_mid_tool_returns_cancelled(cli: Cli, bridge: AcpProcess) -> None:
    cli.server.queue(chat_stream(tool_calls=[("bash", {"command": "sleep 60; echo late"})]))
    session = new_session(bridge, cli.cwd)
    prompt = bridge.send(
        "session/prompt",
        {"sessionId": session, "prompt": [{"type": "text", "text": "Run the slow command"}]},
    )
    bridge.wait_for_update("tool_call")
    bridge.notify("session/cancel", {"sessionId": session})
    assert bridge.result(prompt, timeout=30)["stopReason"] == "cancelled"
    assert len(cli.server.requests) == 1


@pytest.mark.parametrize("answer", ["allow", "reject"])
def test_a_gate_asks_the_editor_and_its_answer_decides(
    cli: Cli, bridge: AcpProcess, answer: str
) -> None:
    (cli.agent_dir / "extensions").mkdir(exist_ok=True)
    (cli.agent_dir / "extensions" / "gate.py").write_text(GATE_PLUGIN)
    cli.server.queue(
        chat_stream(tool_calls=[("bash", {"command": "echo ran > proof.txt"})]),
        chat_stream("Finished."),
    )
    bridge.permission_kind = answer
    session = new_session(bridge, cli.cwd)
    result = bridge.request(
        "session/prompt",
        {"sessionId": session, "prompt": [{"type": "text", "text": "Write the proof"}]},
    )
    assert result["stopReason"] == "end_turn"
    [asked] = bridge.permission_requests
    assert asked["toolCall"]["title"] == "Run this command?"
    assert asked["toolCall"]["rawInput"]["message"] == "echo ran > proof.txt"
    assert (cli.cwd / "proof.txt").exists() == (answer == "allow")
    ends = [u.get("status") for u in bridge.updates if u["sessionUpdate"] == "tool_call_update"]
    assert ends[-1] == ("completed" if answer == "allow" else "failed")
    sent = cli.server.requests[1].json()["messages"][-1]
    assert ("the user said no" in json.dumps(sent)) == (answer == "reject")


def test_a_fresh_bridge_lists_and_loads_the_session(cli: Cli, pi_acp: list[str]) -> None:
    cli.server.queue(chat_stream("Noted: blue."), chat_stream("You said blue."))
    with start_bridge(cli, pi_acp) as first:
        session = new_session(first, cli.cwd)
        prompt = {"sessionId": session, "prompt": [{"type": "text", "text": "Remember blue"}]}
        assert first.request("session/prompt", prompt)["stopReason"] == "end_turn"
    with start_bridge(cli, pi_acp) as second:
        listed = second.request("session/list", {"cwd": str(cli.cwd)})
        assert [s["sessionId"] for s in listed["sessions"]] == [session]
        second.request("session/load", {"sessionId": session, "cwd": str(cli.cwd),
                                        "mcpServers": []})  # fmt: skip
        chunks = ("user_message_chunk", "agent_message_chunk")
        replayed = [(u["sessionUpdate"], u["content"]["text"]) for u in second.updates
                    if u["sessionUpdate"] in chunks]  # fmt: skip
        assert ("user_message_chunk", "Remember blue") in replayed
        assert ("agent_message_chunk", "Noted: blue.") in replayed
        again = {"sessionId": session, "prompt": [{"type": "text", "text": "Which colour?"}]}
        assert second.request("session/prompt", again)["stopReason"] == "end_turn"
    texts = json.dumps(cli.server.requests[1].json()["messages"])
    assert "Remember blue" in texts and "Noted: blue." in texts
