"""`pi -p` with an expired Claude Pro/Max login: the token is refreshed against the fake
authorisation server and sent as pi sends it; a refused refresh stops with an error naming
/login and leaves auth.json as it was."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from pi_core.ai.oauth import now_ms
from pi_core.testing import FakeAuthServer, FakeResponse
from tests.cli.conftest import Cli

EVENTS = [
    ("message_start", {"type": "message_start", "message": {
        "id": "msg_1", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
        "content": [], "stop_reason": None, "usage": {"input_tokens": 3, "output_tokens": 0}}}),
    ("content_block_start", {"type": "content_block_start", "index": 0,
                             "content_block": {"type": "text", "text": ""}}),
    ("content_block_delta", {"type": "content_block_delta", "index": 0,
                             "delta": {"type": "text_delta", "text": "REFRESHED-OK"}}),
    ("content_block_stop", {"type": "content_block_stop", "index": 0}),
    ("message_delta", {"type": "message_delta", "delta": {"stop_reason": "end_turn"},
                       "usage": {"output_tokens": 2}}),
    ("message_stop", {"type": "message_stop"}),
]  # fmt: skip


def anthropic_stream() -> FakeResponse:
    return FakeResponse(
        chunks=[f"event: {name}\ndata: {json.dumps(data)}\n\n".encode() for name, data in EVENTS]
    )


@pytest.fixture
def expired(cli: Cli) -> Iterator[tuple[Cli, FakeAuthServer, dict[str, object]]]:
    record = {"type": "oauth", "refresh": "refresh-0", "access": "sk-ant-oat01-old",
              "expires": now_ms() - 1000}  # fmt: skip
    (cli.agent_dir / "auth.json").write_text(json.dumps({"anthropic": record}, indent=2))
    (cli.agent_dir / "auth.json").chmod(0o600)
    models = {"providers": {"anthropic": {"baseUrl": cli.server.base_url}}}
    (cli.agent_dir / "models.json").write_text(json.dumps(models))
    with FakeAuthServer() as fake:
        cli.env["PI_TEST_OAUTH_ORIGIN"] = fake.origin
        yield cli, fake, record


def test_an_expired_login_is_refreshed_and_used(
    expired: tuple[Cli, FakeAuthServer, dict[str, object]],
) -> None:
    cli, fake, _ = expired
    fake.refresh_tokens.add("refresh-0")
    cli.server.queue(anthropic_stream())
    done = cli.run("-p", "--provider", "anthropic", "--model", "claude-sonnet-4-5", "hi")
    assert done.returncode == 0, done.stderr
    assert "REFRESHED-OK" in done.stdout
    assert [r.body["grant_type"] for r in fake.requests] == ["refresh_token"]
    [request] = cli.server.requests
    assert request.headers["authorization"] == "Bearer sk-ant-oat01-access-1"
    assert request.headers["x-app"] == "cli"
    stored = json.loads((cli.agent_dir / "auth.json").read_text())["anthropic"]
    assert (stored["access"], stored["refresh"]) == ("sk-ant-oat01-access-1", "refresh-1")


def test_a_refused_refresh_says_to_log_in_again(
    expired: tuple[Cli, FakeAuthServer, dict[str, object]],
) -> None:
    cli, _, _ = expired
    before = (cli.agent_dir / "auth.json").read_text()
    done = cli.run("-p", "--provider", "anthropic", "--model", "claude-sonnet-4-5", "hi")
    assert done.returncode == 1
    assert "Run /login to log in to Anthropic (Claude Pro/Max) again" in done.stderr
    assert cli.server.requests == []
    assert (cli.agent_dir / "auth.json").read_text() == before
