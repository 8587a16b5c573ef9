"""Mistral's wire format for the loopback fake: streamed chat chunks, and how to run a `pi`
(ours or pi 0.73.1) against the fake with the catalog's `mistral` provider pointed at it."""

from __future__ import annotations

import json
import os
import shutil
import struct
import subprocess
import sys
import zlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pi_core.testing import FakeLLMServer, FakeResponse

STREAM_ID = "cmpl-7f3a0c9e"


def chunk(delta: dict[str, Any], finish: str | None = None, **extra: Any) -> dict[str, Any]:
    """One `chat.completion.chunk` as Mistral streams it."""
    choice = {"index": 0, "delta": delta, "finish_reason": finish}
    return {"id": STREAM_ID, "object": "chat.completion.chunk", "created": 1, "model": "m",
            "choices": [choice], **extra}  # fmt: skip


def mistral_stream(
    text: str = "",
    *,
    thinking: str = "",
    tool_calls: Sequence[tuple[str, str, dict[str, Any]]] = (),
    usage: tuple[int, int] = (10, 5),
    finish: str | None = None,
    done: bool = True,
    **options: Any,
) -> FakeResponse:
    """A streamed answer: `content: ""` first (as Mistral does), thinking parts, text in
    pieces, then the tool calls (id, name, arguments), each whole, in the chunk with the finish
    reason and usage."""
    events: list[dict[str, Any] | str] = [chunk({"role": "assistant", "content": ""})]
    if thinking:
        part = {"type": "thinking", "thinking": [{"type": "text", "text": thinking}]}
        events.append(chunk({"content": [part]}))
    for start in range(0, len(text), 6):
        events.append(chunk({"content": text[start : start + 6]}))
    calls = [
        {"id": call_id, "function": {"name": name, "arguments": json.dumps(arguments)}, "index": i}
        for i, (call_id, name, arguments) in enumerate(tool_calls)
    ]
    prompt, completion = usage
    counts = {"prompt_tokens": prompt, "total_tokens": prompt + completion,
              "completion_tokens": completion}  # fmt: skip
    reason = finish or ("tool_calls" if tool_calls else "stop")
    last = {"content": None, "tool_calls": calls} if calls else {"content": ""}
    events.append(chunk(last, reason, usage=counts))
    if done:
        events.append("[DONE]")
    return FakeResponse.sse(events, **options)


def png() -> bytes:
    """A valid 2x2 RGB PNG, small enough that both agents send it unchanged."""

    def part(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    rows = b"".join(b"\x00" + b"\xff\x00\x00" * 2 for _ in range(2))
    header = struct.pack(">IIBBBBB", 2, 2, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + part(b"IHDR", header)
        + part(b"IDAT", zlib.compress(rows))
        + (part(b"IEND", b""))
    )


def run_pi(
    command: list[str], args: list[str], answers: list[FakeResponse], root: Path
) -> tuple[subprocess.CompletedProcess[str], list[Any]]:
    """Run `command` + `args` in a fresh home whose models.json points `mistral` at the fake;
    return the finished process and the requests (path, headers, body) it sent."""
    home, cwd = root / "home", root / "project"
    agent = home / ".pi" / "agent"
    agent.mkdir(parents=True)
    cwd.mkdir()
    (cwd / "note.txt").write_text("hello\n")
    (cwd / "pic.png").write_bytes(png())
    with FakeLLMServer() as server:
        models = {"providers": {"mistral": {"baseUrl": server.base_url}}}
        (agent / "models.json").write_text(json.dumps(models))
        server.queue(*answers)
        env = {**os.environ, "HOME": str(home), "PI_CODING_AGENT_DIR": str(agent),
               "PI_OFFLINE": "1", "NO_COLOR": "1", "MISTRAL_API_KEY": "test-key"}  # fmt: skip
        for key in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "PI_CACHE_RETENTION"):
            env.pop(key, None)
        done = subprocess.run(
            [*command, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=120
        )
        requests = [
            {"path": r.path, "headers": r.headers, "body": r.body.decode()} for r in server.requests
        ]
    text = json.dumps(requests).replace(str(root), "<root>")
    return done, list(json.loads(text))


def pi_command() -> str:
    """Our `pi`: the one beside this Python, else the one on PATH."""
    beside = Path(sys.executable).parent / "pi"
    found = str(beside) if beside.exists() else shutil.which("pi")
    assert found, "the pi command is installed with the project"
    return found
