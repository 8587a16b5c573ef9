"""A failure the provider's transport absorbs never reaches an RPC client or `pi -p` as an error
turn: pi's SDKs retry 429, 5xx and connection failures twice before the agent-level auto-retry."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from typing import Any

from pi_core.testing import FakeResponse, chat_error, chat_stream
from pi_core.testing.fake_llm import RecordedRequest
from tests.cli.conftest import Cli
from tests.cli.rpc_script import RpcProcess

Start = Callable[..., RpcProcess]


def error(status: int, **headers: str) -> FakeResponse:
    response = chat_error(status, f"upstream said {status}")
    response.headers = {"Retry-After": "0", **headers}  # tiny waits: the tests sit them out
    return response


def merge_settings(cli: Cli, **values: Any) -> None:
    path = cli.agent_dir / "settings.json"
    path.write_text(json.dumps({**json.loads(path.read_text()), **values}))


def prompt_until_agent_end(process: RpcProcess) -> list[dict[str, Any]]:
    process.send({"id": "p", "type": "prompt", "message": "hello"})
    process.read_until(lambda r: r.get("type") == "agent_end")
    return process.records


def assistant_ends(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        r["message"]
        for r in records
        if r.get("type") == "message_end" and r["message"]["role"] == "assistant"
    ]


def test_two_server_errors_then_an_answer_make_one_clean_turn(cli: Cli, rpc: Start) -> None:
    cli.server.queue(error(503), error(502), chat_stream("all good"))
    records = prompt_until_agent_end(rpc("--no-session"))
    [answer] = assistant_ends(records)
    assert answer["stopReason"] == "stop" and answer["content"][0]["text"] == "all good"
    assert not [r for r in records if r.get("type", "").startswith("auto_retry")]
    assert len(cli.server.requests) == 3


def test_a_reset_connection_is_absorbed_too(cli: Cli, rpc: Start) -> None:
    reset = FakeResponse(drop_connection=True)
    cli.server.queue(reset, FakeResponse(drop_connection=True), chat_stream("all good"))
    records = prompt_until_agent_end(rpc("--no-session"))
    assert [m["stopReason"] for m in assistant_ends(records)] == ["stop"]
    assert not [r for r in records if r.get("type", "").startswith("auto_retry")]
    assert len(cli.server.requests) == 3


def test_print_mode_prints_the_answer_after_absorbed_failures(cli: Cli) -> None:
    merge_settings(cli, retry={"enabled": False})  # only the transport may retry
    cli.server.queue(error(429), error(500), chat_stream("printed"))
    result = cli.run("-p", "hello", "--no-session")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "printed" and "429" not in result.stderr
    assert len(cli.server.requests) == 3


def test_a_429_waits_what_retry_after_ms_asks(cli: Cli, rpc: Start) -> None:
    arrivals: list[float] = []

    def stamp(request: RecordedRequest) -> None:
        arrivals.append(time.monotonic())

    cli.server.route(stamp)
    cli.server.queue(error(429, **{"retry-after-ms": "900"}), chat_stream("after the wait"))
    records = prompt_until_agent_end(rpc("--no-session"))
    assert [m["stopReason"] for m in assistant_ends(records)] == ["stop"]
    # the SDKs' own first backoff is at most 0.5 s: a gap of 0.9 s or more is the server's ask
    assert arrivals[1] - arrivals[0] >= 0.9


def test_three_failures_reach_the_agent_level_retry(cli: Cli, rpc: Start) -> None:
    cli.server.queue(error(503), error(503), error(503))
    process = rpc("--no-session")
    process.send({"id": "p", "type": "prompt", "message": "hello"})
    process.read_until(lambda r: r.get("type") == "auto_retry_start")
    assert process.records[-1]["attempt"] == 1
    assert "upstream said 503" in process.records[-1]["errorMessage"]
    [failed] = assistant_ends(process.records)
    assert failed["stopReason"] == "error"
    assert len(cli.server.requests) == 3
    process.send({"id": "stop", "type": "abort_retry"})
    process.read_until(lambda r: r.get("type") == "auto_retry_end")
    process.close()


def test_retry_provider_max_retries_sets_how_many(cli: Cli, rpc: Start) -> None:
    merge_settings(cli, retry={"provider": {"maxRetries": 1}})
    cli.server.queue(error(503), error(503))
    process = rpc("--no-session")
    process.send({"id": "p", "type": "prompt", "message": "hello"})
    process.read_until(lambda r: r.get("type") == "auto_retry_start")
    assert len(cli.server.requests) == 2
    process.send({"id": "stop", "type": "abort_retry"})
    process.read_until(lambda r: r.get("type") == "auto_retry_end")
    process.close()


def test_retry_provider_timeout_ms_sends_a_slow_attempt_again(cli: Cli, rpc: Start) -> None:
    merge_settings(cli, retry={"provider": {"timeoutMs": 300}})
    second_sent = threading.Event()

    def hold_the_first(request: RecordedRequest) -> FakeResponse | None:
        if len(cli.server.requests) == 1:
            second_sent.wait(30)  # no answer until the client has given up and sent again
            return chat_stream("too late")
        second_sent.set()
        return None

    cli.server.route(hold_the_first)
    cli.server.queue(chat_stream("in time"))
    records = prompt_until_agent_end(rpc("--no-session"))
    [answer] = assistant_ends(records)
    assert answer["content"][0]["text"] == "in time"
    assert len(cli.server.requests) == 2


def test_an_error_after_the_stream_started_is_not_retried_by_the_transport(
    cli: Cli, rpc: Start
) -> None:
    merge_settings(cli, retry={"enabled": False})
    cli.server.queue(chat_stream("a long answer cut short", piece=4, cut_after_chunks=3))
    records = prompt_until_agent_end(rpc("--no-session"))
    assert [m["stopReason"] for m in assistant_ends(records)] == ["error"]
    assert len(cli.server.requests) == 1
