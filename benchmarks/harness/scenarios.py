"""Scripted conversations on the loopback fake LLM server, and a workspace for each side."""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass
from pathlib import Path

from pi_core.testing import FakeLLMServer, FakeResponse, chat_models_json, chat_stream

MODEL = "fake/fake-model"
NOTE_MARKER = "benchmark-note-7f3a"
FINAL_TEXT = "The file holds a short benchmark note."


class TimedFakeServer(FakeLLMServer):
    """The fake server, also noting (perf_counter) when it starts answering each request."""

    def __init__(self) -> None:
        """Start with no answers sent."""
        super().__init__()
        self.answered_at: list[float] = []

    def _next(self) -> FakeResponse:
        """Note the time, then hand out the next queued response."""
        self.answered_at.append(time.perf_counter())
        return super()._next()


@dataclass
class Workspace:
    """An agent dir with models.json for the fake server, a project folder, and the env."""

    root: Path
    agent: Path
    project: Path
    env: dict[str, str]


def make_workspace(root: Path, base_url: str) -> Workspace:
    """Create HOME, agent dir (models.json) and a small project; both pis accept this layout."""
    agent, project = root / "agent", root / "project"
    agent.mkdir(parents=True)
    (project / "src").mkdir(parents=True)
    (agent / "models.json").write_text(json.dumps(chat_models_json(base_url)))
    (project / "notes.txt").write_text(f"{NOTE_MARKER}\n" + "A line of the note.\n" * 20)
    for index in range(10):
        body = "".join(f"def f{index}_{n}():\n    return {n}\n\n" for n in range(30))
        (project / "src" / f"module{index}.py").write_text(body)
    env = dict(os.environ)
    env.update(HOME=str(root), PI_CODING_AGENT_DIR=str(agent), PI_OFFLINE="1")
    return Workspace(root, agent, project, env)


# An installed pi runs from cached bytecode; an environment that sets PYTHONDONTWRITEBYTECODE
# (as some sandboxes do) makes every start compile our modules from source instead.
def with_bytecode_cache(env: dict[str, str], cache: Path) -> dict[str, str]:
    """`env` with Python's bytecode cache on, kept in `cache` (the repository is not written)."""
    env = dict(env, PYTHONPYCACHEPREFIX=str(cache))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def print_answers() -> list[FakeResponse]:
    """`pi -p`: turn 1 calls `read` on notes.txt, turn 2 answers in text."""
    return [
        chat_stream(tool_calls=[("read", {"path": "notes.txt"})]),
        chat_stream(FINAL_TEXT),
    ]


def tool_turn_answers(turns: int = 20) -> list[FakeResponse]:
    """`turns - 1` tool-call turns (alternating `ls` and `read`), then a text answer."""
    answers = []
    for index in range(turns - 1):
        if index % 2 == 0:
            call = ("ls", {"path": "src"})
        else:
            call = ("read", {"path": f"src/module{index % 10}.py"})
        answers.append(chat_stream(tool_calls=[call]))
    answers.append(chat_stream(FINAL_TEXT))
    return answers


def _chunk(delta: dict[str, object], finish: str | None = None) -> bytes:
    """One Chat Completions SSE event, encoded."""
    body = {
        "id": "chatcmpl-bench",
        "object": "chat.completion.chunk",
        "created": 0,
        "model": "fake-model",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    }
    return f"data: {json.dumps(body, separators=(',', ':'))}\n\n".encode()


def stream_answer(total: int, delta: int = 10, events_per_write: int = 500) -> FakeResponse:
    """A text answer of `total` bytes in `delta`-byte SSE events, many events per socket write."""
    if total % delta:
        raise ValueError("total must be a multiple of delta")
    word = ("abcdefghijklmnopqrstuvwxyz"[: delta - 1] + " ").encode()
    head, tail = _chunk({"content": "\0"}).split(b"\\u0000")
    event = head + word + tail
    count = total // delta
    chunks = [_chunk({"role": "assistant", "content": ""})]
    for start in range(0, count, events_per_write):
        chunks.append(event * min(events_per_write, count - start))
    usage = {
        "id": "chatcmpl-bench",
        "object": "chat.completion.chunk",
        "created": 0,
        "model": "fake-model",
        "choices": [],
        "usage": {"prompt_tokens": 10, "completion_tokens": count, "total_tokens": 10 + count},
    }
    chunks += [
        _chunk({}, "stop"),
        f"data: {json.dumps(usage)}\n\n".encode(),
        b"data: [DONE]\n\n",
    ]
    return FakeResponse(chunks=chunks)


def stream_text(total: int, delta: int = 10) -> str:
    """The text `stream_answer(total, delta)` streams."""
    return ("abcdefghijklmnopqrstuvwxyz"[: delta - 1] + " ") * (total // delta)
