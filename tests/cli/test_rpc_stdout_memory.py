"""`pi --mode rpc` whose client stops reading: the records it cannot write yet cost memory in
proportion to the deltas, not to the partial messages they repeat."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from pi_core.testing import chat_stream, console_script
from tests.cli.conftest import Cli


def _status_kib(pid: int, field: str) -> int:
    """A `/proc/PID/status` figure (VmRSS, VmHWM) in KiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise AssertionError(f"no {field} for {pid}")


def _send(process: subprocess.Popen[bytes], command: dict[str, object]) -> None:
    assert process.stdin is not None
    process.stdin.write((json.dumps(command) + "\n").encode())
    process.stdin.flush()


def _read_line(process: subprocess.Popen[bytes]) -> bytes:
    """One line of stdout, read a byte at a time (nothing read past it is lost)."""
    assert process.stdout is not None
    line = b""
    while not line.endswith(b"\n"):
        byte = os.read(process.stdout.fileno(), 1)
        assert byte, "stdout ended"
        line += byte
    return line


def test_a_stalled_rpc_client_costs_memory_per_delta_not_per_partial_message(cli: Cli) -> None:
    """2,000 deltas (~40 MB of message_update records) streamed while the client reads nothing:
    the agent finishes its turn and its peak RSS grows by far less than the records' size; then
    the client gets every record, in order."""
    (cli.cwd / "a.txt").write_text("hello")
    text = "".join(f"{n:09d}\n" for n in range(2000))
    cli.server.queue(
        chat_stream(text, tool_calls=[("read", {"path": "a.txt"})], piece=10),
        chat_stream("done"),
    )
    process = subprocess.Popen(
        [console_script("pi"), "--mode", "rpc"],
        cwd=cli.cwd,
        env=cli.env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    try:
        _send(process, {"id": "s", "type": "get_state"})
        assert json.loads(_read_line(process))["id"] == "s"  # started
        started = _status_kib(process.pid, "VmRSS")
        _send(process, {"id": "p1", "type": "prompt", "message": "write a lot"})
        cli.server.wait_for_requests(2, timeout=120)  # the first turn streamed, all unread
        grown_mib = (_status_kib(process.pid, "VmHWM") - started) / 1024
        assert process.stdin is not None
        process.stdin.close()
        assert process.stdout is not None
        output = process.stdout.read()
        assert process.wait(timeout=60) == 0
    finally:
        if process.poll() is None:
            process.kill()
    records = [json.loads(line) for line in output.decode().splitlines()]
    deltas = [
        r["assistantMessageEvent"]["delta"]
        for r in records
        if r["type"] == "message_update" and r["assistantMessageEvent"]["type"] == "text_delta"
    ]
    assert "".join(deltas) == text + "done"  # every delta, in order
    ends = [r["message"] for r in records if r["type"] == "message_end"]
    assert [m["content"][0].get("text") for m in ends if m["role"] == "assistant"] == [text, "done"]
    assert [r["type"] for r in records[-2:]] == ["agent_end", "agent_settled"]
    assert len(output) > 35 << 20
    assert grown_mib < 15, f"RSS grew {grown_mib:.1f} MiB with the client stalled"
