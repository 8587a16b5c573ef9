"""Resuming a session that ends in a tool call with no result (pi was killed while the tool ran).

Every vendor API rejects a tool call without a result, so the request on resume answers each such
call with an error result "No result provided", as pi does, in each provider's wire format. The
session file itself is left as it was.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from pi_core.testing import chat_error
from tests.cli.conftest import Cli

HEADER = {"type": "session", "version": 3, "id": "5b0c1f7e-1111-4a2b-9c3d-0123456789ab",
          "timestamp": "2026-11-22T10:00:00.000Z", "cwd": "CWD"}  # fmt: skip
USER = {"type": "message", "id": "aaaa0001", "parentId": None,
        "timestamp": "2026-11-22T10:00:01.000Z",
        "message": {"role": "user", "content": [{"type": "text", "text": "run it"}],
                    "timestamp": 1795351367913}}  # fmt: skip
CALL = {"type": "message", "id": "aaaa0002", "parentId": "aaaa0001",
        "timestamp": "2026-11-22T10:00:02.000Z",
        "message": {"role": "assistant",
                    "content": [{"type": "toolCall", "id": "call_killed", "name": "bash",
                                 "arguments": {"command": "sleep 30"}}],
                    "api": "openai-completions", "provider": "fake", "model": "fake-model",
                    "usage": {"input": 1, "output": 1, "cacheRead": 0, "cacheWrite": 0,
                              "totalTokens": 2, "cost": {"input": 0, "output": 0, "cacheRead": 0,
                                                         "cacheWrite": 0, "total": 0}},
                    "stopReason": "toolUse", "timestamp": 1795351368055}}  # fmt: skip


def orphan_answer(api: str, body: dict[str, Any]) -> dict[str, Any]:
    """The result the request carries for the killed call, in the API's own shape."""
    if api == "openai-completions":
        (result,) = [m for m in body["messages"] if m["role"] == "tool"]
        return {"id": result["tool_call_id"], "text": result["content"], "error": None}
    if api == "anthropic-messages":
        user_blocks = [b for m in body["messages"] if m["role"] == "user" for b in m["content"]]
        (result,) = [b for b in user_blocks if isinstance(b, dict) and b["type"] == "tool_result"]
        text = (
            result["content"]
            if isinstance(result["content"], str)
            else result["content"][0]["text"]
        )
        return {"id": result["tool_use_id"], "text": text, "error": result.get("is_error")}
    (result,) = [i for i in body["input"] if i.get("type") == "function_call_output"]
    return {"id": result["call_id"], "text": result["output"], "error": None}


@pytest.mark.parametrize("api", ["openai-completions", "anthropic-messages", "openai-responses"])
def test_a_killed_tool_call_gets_no_result_provided_on_resume(cli: Cli, api: str) -> None:
    models = {"providers": {"target": {
        "baseUrl": cli.server.base_url, "api": api, "apiKey": "test-key",
        "models": [{"id": "target-model", "contextWindow": 128000, "maxTokens": 4096}],
    }}}  # fmt: skip
    (cli.agent_dir / "models.json").write_text(json.dumps(models))
    session = cli.cwd / "killed.jsonl"
    header = {**HEADER, "cwd": str(cli.cwd)}
    session.write_text("".join(json.dumps(entry) + "\n" for entry in (header, USER, CALL)))
    before = session.read_bytes()
    cli.server.queue(chat_error(400, "stop here"))

    cli.run("--session", str(session), "--model", "target/target-model", "-p", "go on")

    body = cli.server.requests[0].json()
    answer = orphan_answer(api, body)
    assert answer["text"] == "No result provided"
    assert answer["id"].startswith("call_killed")
    assert answer["error"] in (None, True)
    assert session.read_bytes().startswith(before)  # the file is only appended to
