"""A session whose header was torn by a crash during its first write still opens and resumes."""

from __future__ import annotations

import json

from pi_core.testing import chat_stream
from tests.cli.conftest import Cli

ENTRIES = [
    {"type": "model_change", "id": "b0000001", "parentId": None,
     "timestamp": "2026-11-22T10:00:00.500Z", "provider": "fake", "modelId": "fake-model"},
    {"type": "message", "id": "b0000002", "parentId": "b0000001",
     "timestamp": "2026-11-22T10:00:01.000Z",
     "message": {"role": "user", "content": [{"type": "text", "text": "remember 42"}],
                 "timestamp": 1795351367913}},
    {"type": "message", "id": "b0000003", "parentId": "b0000002",
     "timestamp": "2026-11-22T10:00:02.000Z",
     "message": {"role": "assistant", "content": [{"type": "text", "text": "Noted: 42."}],
                 "api": "openai-completions", "provider": "fake", "model": "fake-model",
                 "usage": {"input": 1, "output": 1, "cacheRead": 0, "cacheWrite": 0,
                           "totalTokens": 2, "cost": {"input": 0, "output": 0, "cacheRead": 0,
                                                      "cacheWrite": 0, "total": 0}},
                 "stopReason": "stop", "timestamp": 1795351368055}},
]  # fmt: skip
SESSION_ID = "7d3e4f50-2b1a-4c9d-8e7f-0a1b2c3d4e5f"


def test_a_torn_header_is_recovered_and_the_session_resumes(cli: Cli) -> None:
    session = cli.cwd / f"2026-11-22T10-00-00-000Z_{SESSION_ID}.jsonl"
    header = json.dumps({"type": "session", "version": 3, "id": SESSION_ID,
                         "timestamp": "2026-11-22T10:00:00.000Z", "cwd": str(cli.cwd)})  # fmt: skip
    torn = header[:30]  # the crash cut the first write here; a later run appended the rest
    session.write_text(torn + "\n" + "".join(json.dumps(e) + "\n" for e in ENTRIES))
    before = session.read_bytes()
    cli.server.queue(chat_stream("It was 42."))

    done = cli.run("--session", str(session), "-p", "what number?")

    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "It was 42."
    assert "recovered the session header" in done.stderr
    sent = cli.server.requests[0].json()["messages"]
    texts = [m["content"] if isinstance(m["content"], str) else m["content"][0]["text"]
             for m in sent if m["role"] != "system"]  # fmt: skip
    assert texts == ["remember 42", "Noted: 42.", "what number?"]
    after = session.read_bytes()
    assert after.startswith(before)  # nothing lost, only appended
    new_lines = [json.loads(line) for line in after[len(before) :].splitlines()]
    assert new_lines and new_lines[0]["parentId"] == "b0000003"
