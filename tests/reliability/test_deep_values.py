"""Values nested thousands deep (pi writes them when a model sends deep tool arguments) open,
round-trip byte for byte, and a model's deep tool arguments never lose the turn."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from pi_core.session.paths import default_session_dir
from pi_core.testing import FakeResponse, chat_stream
from tests.cli.conftest import Cli
from tests.cli.rpc_script import RpcProcess

Start = Callable[..., RpcProcess]

SESSION_ID = "5a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d"


def loads_deep(text: str) -> Any:
    """json.loads with room for deep values (the test reads what pi wrote)."""
    previous = sys.getrecursionlimit()
    sys.setrecursionlimit(previous + 20_000)
    try:
        return json.loads(text)
    finally:
        sys.setrecursionlimit(previous)


def deep(depth: int) -> str:
    """A JSON array nested `depth` deep, as text (json.dumps itself cannot write one)."""
    return "[" * depth + "]" * depth


def session_lines(cwd: str, depth: int) -> list[str]:
    """A pi 0.73.1 session whose assistant called a tool with arguments nested `depth` deep."""
    usage = ('{"input":1,"output":1,"cacheRead":0,"cacheWrite":0,"totalTokens":2,"cost":'
             '{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}}')  # fmt: skip
    return [
        json.dumps(
            {
                "type": "session",
                "version": 3,
                "id": SESSION_ID,
                "timestamp": "2026-11-22T10:00:00.000Z",
                "cwd": cwd,
            },
            separators=(",", ":"),
        ),
        '{"type":"message","id":"c0000001","parentId":null,"timestamp":"2026-11-22T10:00:01.000Z",'
        '"message":{"role":"user","content":[{"type":"text","text":"go deep"}],'
        '"timestamp":1795351367913}}',
        '{"type":"message","id":"c0000002","parentId":"c0000001",'
        '"timestamp":"2026-11-22T10:00:02.000Z","message":{"role":"assistant","content":'
        '[{"type":"toolCall","id":"call_1","name":"nest","arguments":{"value":'
        + deep(depth)
        + '}}],"api":"openai-completions","provider":"fake","model":"fake-model","usage":'
        + usage
        + ',"stopReason":"toolUse","timestamp":1795351368055}}',
        '{"type":"message","id":"c0000003","parentId":"c0000002",'
        '"timestamp":"2026-11-22T10:00:03.000Z","message":{"role":"toolResult",'
        '"toolCallId":"call_1","toolName":"nest","content":[{"type":"text","text":"Tool nest not'
        ' found"}],"isError":true,"timestamp":1795351368100}}',
    ]


@pytest.mark.parametrize("depth", [3000, 10000, 100_000])
def test_a_session_with_a_deep_line_opens_and_is_kept_byte_for_byte(cli: Cli, depth: int) -> None:
    session = cli.cwd / f"2026-11-22T10-00-00-000Z_{SESSION_ID}.jsonl"
    before = "".join(line + "\n" for line in session_lines(str(cli.cwd), depth)).encode()
    session.write_bytes(before)
    cli.server.queue(chat_stream("still here"))

    done = cli.run("--session", str(session), "-p", "next")

    assert done.returncode == 0, done.stderr[-2000:]
    assert "RecursionError" not in done.stderr
    assert done.stdout.strip() == "still here"
    sent = cli.server.requests[0].json()["messages"]
    (assistant,) = [m for m in sent if m["role"] == "assistant"]
    arguments = assistant["tool_calls"][0]["function"]["arguments"]
    assert arguments.replace(" ", "") == '{"value":' + deep(depth) + "}"
    after = session.read_bytes()
    assert after.startswith(before)  # the deep line is kept as it was, byte for byte
    added = [json.loads(line) for line in after[len(before) :].decode().splitlines()]
    roles = [entry["message"]["role"] for entry in added if entry["type"] == "message"]
    assert roles == ["user", "assistant"]


def deep_call_stream(depth: int) -> FakeResponse:
    """A streamed answer calling bash with a `command` nested `depth` deep (spliced in as text:
    json.dumps cannot write it)."""
    response = chat_stream(tool_calls=[("bash", {"command": "DEEP"})], piece=1_000_000)
    marker = b'\\"DEEP\\"'  # the string inside the streamed arguments, itself a JSON string
    response.chunks = [chunk.replace(marker, deep(depth).encode()) for chunk in response.chunks]
    assert any(deep(depth).encode() in chunk for chunk in response.chunks)
    return response


@pytest.mark.parametrize("mode", ["text", "json"])
def test_deep_tool_arguments_fail_cleanly_and_the_turn_is_kept(cli: Cli, mode: str) -> None:
    cli.server.queue(deep_call_stream(5000), chat_stream("recovered"))

    done = cli.run("--mode", mode, "-p", "call it")

    assert done.returncode == 0, done.stderr[-2000:]
    assert "RecursionError" not in done.stderr and "recursion" not in done.stderr
    (session,) = cli.sessions()
    entries = [loads_deep(line) for line in session.read_text().splitlines()]
    messages = [entry["message"] for entry in entries if entry["type"] == "message"]
    assert [m["role"] for m in messages] == ["user", "assistant", "toolResult", "assistant"]
    assert messages[0]["content"][0]["text"] == "call it"
    call = messages[1]["content"][0]
    assert call["type"] == "toolCall" and call["name"] == "bash"
    depth, value = 0, call["arguments"]["command"]
    while isinstance(value, list) and value:
        depth, value = depth + 1, value[0]
    assert depth == 4999  # the innermost list is empty
    assert messages[2]["isError"] is True
    error = messages[2]["content"][0]["text"]
    assert error.startswith('Validation failed for tool "bash"') and len(error) < 5000
    assert messages[3]["content"][0]["text"] == "recovered"
    # the second request carried the whole turn back to the model
    second = cli.server.requests[1].json()["messages"]
    assert [m["role"] for m in second if m["role"] != "system"] == [
        "user", "assistant", "tool", ]  # fmt: skip


def test_a_session_with_a_deep_line_exports(cli: Cli) -> None:
    session = cli.cwd / f"2026-11-22T10-00-00-000Z_{SESSION_ID}.jsonl"
    session.write_text("".join(line + "\n" for line in session_lines(str(cli.cwd), 3000)))

    done = cli.run("--export", str(session), "out.html")

    assert done.returncode == 0, done.stderr[-2000:]
    page = (cli.cwd / "out.html").read_text()
    assert "go deep" in page and page.count("[") >= 3000


def test_a_session_with_a_deep_line_compacts(cli: Cli, rpc: Start) -> None:
    session = cli.cwd / f"2026-11-22T10-00-00-000Z_{SESSION_ID}.jsonl"
    later = ('{"type":"message","id":"c0000004","parentId":"c0000003","timestamp":'
             '"2026-11-22T10:00:04.000Z","message":{"role":"user","content":[{"type":"text",'
             '"text":"and then"}],"timestamp":1795351368200}}')  # fmt: skip
    lines = [*session_lines(str(cli.cwd), 3000), later]
    session.write_text("".join(line + "\n" for line in lines))
    cli.settings(defaultProvider="fake", defaultModel="fake-model",
                 compaction={"keepRecentTokens": 1})  # fmt: skip
    cli.server.queue(chat_stream("## Goal\nGo deep."))
    process = rpc("--session", str(session))

    process.send({"id": "c", "type": "compact"})
    process.read_until(lambda r: r.get("type") == "response" and r.get("id") == "c")

    response = process.records[-1]
    assert response["success"], response.get("error")
    assert "Go deep." in response["data"]["summary"]
    sent = cli.server.requests[0].body.decode()
    assert "go deep" in sent and "nest" in sent, sent[-3000:]  # the summariser saw the call
    assert "Traceback" not in process.close()


def test_continue_picks_up_a_session_with_a_deep_line(cli: Cli) -> None:
    folder = default_session_dir(str(cli.cwd), cli.agent_dir)
    session = folder / f"2026-11-22T10-00-00-000Z_{SESSION_ID}.jsonl"
    before = "".join(line + "\n" for line in session_lines(str(cli.cwd), 3000)).encode()
    session.write_bytes(before)
    cli.server.queue(chat_stream("continued"))

    done = cli.run("--continue", "-p", "next")

    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "continued"
    assert session.read_bytes().startswith(before) and len(session.read_bytes()) > len(before)


def test_a_rewrite_writes_a_deep_line_back_byte_for_byte(tmp_path: Path) -> None:
    from pi_core.session.jsonl import read_session_file, rewrite_file

    source = tmp_path / "deep.jsonl"
    source.write_text("".join(line + "\n" for line in session_lines(str(tmp_path), 10000)))
    copy = tmp_path / "copy.jsonl"

    rewrite_file(copy, read_session_file(source).entries)  # what a migration or a fork writes

    assert copy.read_bytes() == source.read_bytes()
