"""The agent modes leave without tearing the heap down, and lose nothing on the way out.

Each answer here is larger than a pipe's buffer, so `pi` can only finish once the reader has
taken everything: an exit before stdout is flushed would cut the output short.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

from pi_core.testing import chat_stream, console_script
from tests.cli.conftest import Cli

BIG = "".join(f"line {n:06d} of a long answer\n" for n in range(12_000))  # ~330 KB


def _pi() -> str:
    pi = console_script("pi")
    return pi


def _read_in_small_pieces(process: subprocess.Popen[bytes]) -> bytes:
    """Read stdout 4 KiB at a time (a slow reader: the pipe stays full while pi writes)."""
    assert process.stdout is not None
    pieces = []
    while piece := os.read(process.stdout.fileno(), 4096):
        pieces.append(piece)
    return b"".join(pieces)


def _session_lines(cli: Cli) -> list[dict[str, Any]]:
    [session] = cli.sessions()
    text = session.read_text()
    assert text.endswith("\n")
    return [json.loads(line) for line in text.splitlines()]


def _assistant_texts(lines: list[dict[str, Any]]) -> list[str]:
    return [
        "".join(part.get("text", "") for part in line["message"]["content"])
        for line in lines
        if line["type"] == "message" and line["message"]["role"] == "assistant"
    ]


def _rpc_prompted(cli: Cli, message: str) -> subprocess.Popen[bytes]:
    """`pi --mode rpc` with the prompt `message` (id p1) written to its stdin and flushed."""
    process = subprocess.Popen(
        [_pi(), "--mode", "rpc"],
        cwd=cli.cwd,
        env=cli.env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    assert process.stdin is not None
    command = {"id": "p1", "type": "prompt", "message": message}
    process.stdin.write((json.dumps(command) + "\n").encode())
    process.stdin.flush()
    return process


def test_print_mode_output_and_session_are_whole_through_a_slow_pipe(cli: Cli) -> None:
    (cli.cwd / "a.txt").write_text("hello from a")
    cli.server.queue(
        chat_stream(tool_calls=[("read", {"path": "a.txt"})]), chat_stream(BIG, piece=4096)
    )
    process = subprocess.Popen(
        [_pi(), "-p", "Read a.txt, then write a lot"],
        cwd=cli.cwd,
        env=cli.env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    output = _read_in_small_pieces(process)
    assert process.stderr is not None
    errors = process.stderr.read()
    assert process.wait(timeout=60) == 0, errors
    assert output.decode() == BIG + "\n"
    lines = _session_lines(cli)
    roles = [line["message"]["role"] for line in lines if line["type"] == "message"]
    assert roles == ["user", "assistant", "toolResult", "assistant"]
    assert _assistant_texts(lines)[-1] == BIG


def test_json_mode_prints_every_event_up_to_agent_end(cli: Cli) -> None:
    cli.server.queue(chat_stream(BIG, piece=4096))
    process = subprocess.Popen(
        [_pi(), "--mode", "json", "write a lot"],
        cwd=cli.cwd,
        env=cli.env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    output = _read_in_small_pieces(process)
    assert process.wait(timeout=60) == 0
    records = [json.loads(line) for line in output.decode().splitlines()]
    assert records[-1]["type"] == "agent_end"
    deltas = [r for r in records if r["type"] == "message_update"]
    text_deltas = [
        r["assistantMessageEvent"]["delta"]
        for r in deltas
        if r["assistantMessageEvent"]["type"] == "text_delta"
    ]
    assert "".join(text_deltas) == BIG
    assert _assistant_texts(_session_lines(cli)) == [BIG]


def test_rpc_mode_finishes_the_queued_prompt_after_stdin_ends(cli: Cli) -> None:
    cli.server.queue(chat_stream(BIG, piece=4096))
    process = _rpc_prompted(cli, "write a lot")
    assert process.stdin is not None
    process.stdin.close()  # EOF right behind the prompt
    output = _read_in_small_pieces(process)
    assert process.wait(timeout=60) == 0
    records = [json.loads(line) for line in output.decode().splitlines()]
    kinds = [r["type"] for r in records]
    assert {"id": "p1", "type": "response", "command": "prompt", "success": True} in records
    assert kinds[-2:] == ["agent_end", "agent_settled"]
    assert _assistant_texts(_session_lines(cli)) == [BIG]


def test_a_failed_run_keeps_its_exit_code(cli: Cli, tmp_path: Path) -> None:
    result = cli.run("-p", "hello", "--model", "fake/no-such-model")
    assert result.returncode == 1
    assert "no-such-model" in result.stderr


def test_rpc_mode_streams_on_while_the_reader_stalls_and_loses_nothing(cli: Cli) -> None:
    """stdout is written by a thread: with nobody reading, the agent still finishes its turn
    (it asks for the next one), and every record arrives whole and in order afterwards."""
    (cli.cwd / "a.txt").write_text("hello")
    text = "".join(f"{n:04d} é😀\n" for n in range(1500))  # 1,500 deltas, each record ~2x the text
    cli.server.queue(
        chat_stream(text, tool_calls=[("read", {"path": "a.txt"})], piece=10),
        chat_stream("done"),
    )
    process = _rpc_prompted(cli, "write a lot")
    assert process.stdin is not None
    cli.server.wait_for_requests(2, timeout=120)  # ~20 MB of records unread, far past the pipe
    process.stdin.close()
    output = _read_in_small_pieces(process)
    assert process.wait(timeout=60) == 0
    records = [json.loads(line) for line in output.decode().splitlines()]
    assert [r["type"] for r in records[-2:]] == ["agent_end", "agent_settled"]
    answers: list[str] = []
    for record in records:
        if record["type"] == "message_start" and record["message"]["role"] == "assistant":
            answers.append("")
        if record["type"] != "message_update":
            continue
        event = record["assistantMessageEvent"]
        assert event["partial"] == record["message"]
        if event["type"] == "text_delta":
            answers[-1] += event["delta"]
            assert record["message"]["content"][0]["text"] == answers[-1]
    assert answers == [text, "done"]


def test_rpc_mode_whose_reader_goes_away_saves_the_turn_and_exits_1(cli: Cli) -> None:
    """A client that closes its end of stdout while ~5,000 records are still to come: the
    writer thread's failure neither hangs nor crashes the agent; the turn is saved (cut short
    where the hang-up was noticed, see tests/reliability/test_rpc_stdout_closed.py) and the exit
    code says the client went away."""
    cli.server.queue(chat_stream(BIG, piece=64))
    process = _rpc_prompted(cli, "write a lot")
    assert process.stdin is not None and process.stdout is not None
    first = json.loads(process.stdout.readline())
    assert first["id"] == "p1" and first["success"] is True
    process.stdout.close()  # the reader is gone while ~5,000 records are still to come
    process.stdin.close()
    assert process.wait(timeout=120) == 1
    [saved] = _assistant_texts(_session_lines(cli))
    assert BIG.startswith(saved)
