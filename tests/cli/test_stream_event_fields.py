"""Fields of the streamed assistant message that pi sets: `responseId` on a Chat Completions answer
(the first chunk's `id`, as pi-ai's openai-completions provider sets it)."""

from __future__ import annotations

import json

from pi_core.testing import chat_stream
from tests.cli.conftest import Cli


def test_a_chat_completions_answer_carries_its_response_id(cli: Cli) -> None:
    answer = chat_stream("with an id")
    cli.server.queue(answer)
    result = cli.run("--mode", "json", "-p", "hello", "--no-session")
    assert result.returncode == 0, result.stderr
    events = [json.loads(line) for line in result.stdout.splitlines()]
    [end] = [e for e in events if e.get("type") == "message_end"
             and e["message"]["role"] == "assistant"]  # fmt: skip
    first_chunk = json.loads(answer.chunks[0].decode().removeprefix("data: "))
    assert end["message"]["responseId"] == first_chunk["id"]  # pi: the first chunk's id
