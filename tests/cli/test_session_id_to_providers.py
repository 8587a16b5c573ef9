"""Each request carries the session's id to the provider, as pi's `sessionId` (prompt-cache
affinity: Mistral's `x-affinity`, OpenAI's `prompt_cache_key`, the session headers of the
`sendSessionAffinityHeaders` compat flag)."""

from __future__ import annotations

import json

from pi_core.testing import chat_models_json, chat_stream
from tests.cli.conftest import Cli


def test_requests_carry_the_saved_sessions_id(cli: Cli) -> None:
    models = chat_models_json(cli.server.base_url, compat={"sendSessionAffinityHeaders": True})
    (cli.agent_dir / "models.json").write_text(json.dumps(models))
    (cli.cwd / "note.txt").write_text("hello\n")
    cli.server.queue(
        chat_stream(tool_calls=[("read", {"path": "note.txt"})], model="fake-model"),
        chat_stream("It says hello.", model="fake-model"),
    )
    result = cli.run("-p", "--tools", "read", "Read note.txt.")
    assert result.returncode == 0, result.stderr
    (session_file,) = cli.sessions()
    header = json.loads(session_file.read_text().splitlines()[0])
    sent = [request.headers.get("x-session-affinity") for request in cli.server.requests]
    assert sent == [header["id"], header["id"]]
