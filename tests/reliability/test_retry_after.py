"""A 429's Retry-After is honoured over RPC: the retry waits what the server asked (not the 2 s
backoff), up to the configured maximum delay."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from pi_core.testing import chat_error
from tests.cli.conftest import Cli
from tests.cli.rpc_script import RpcProcess

Start = Callable[..., RpcProcess]


@pytest.mark.parametrize(
    ("header", "value", "expected_ms"),
    [("Retry-After", "7", 7000), ("retry-after-ms", "7500", 7500), ("Retry-After", "3600", 60000)],
)
def test_the_retry_waits_what_the_server_asked(
    cli: Cli, rpc: Start, header: str, value: str, expected_ms: int
) -> None:
    settings = json.loads((cli.agent_dir / "settings.json").read_text())
    settings["retry"] = {"provider": {"maxRetryDelayMs": 60000, "maxRetries": 0}}
    (cli.agent_dir / "settings.json").write_text(json.dumps(settings))
    limited = chat_error(429, "Rate limit reached")
    limited.headers = {header: value}
    cli.server.queue(limited)
    process = rpc("--no-session")
    process.send({"id": "p", "type": "prompt", "message": "hello"})
    process.read_until(lambda r: r.get("type") == "auto_retry_start")
    start = process.records[-1]
    assert start["delayMs"] == expected_ms
    process.send({"id": "stop", "type": "abort_retry"})  # no need to sit out the delay
    process.read_until(lambda r: r.get("type") == "auto_retry_end")
    assert process.records[-1]["finalError"] == "Retry cancelled"
    assert len(cli.server.requests) == 1
    process.close()
