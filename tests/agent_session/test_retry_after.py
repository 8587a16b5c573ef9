"""A server's Retry-After reaches the session's retry delay, capped by maxRetryDelayMs."""

from __future__ import annotations

import json

from pi_core.testing import chat_error, chat_stream
from tests.agent_session.conftest import Harness


async def test_the_server_asked_delay_replaces_a_shorter_backoff(harness: Harness) -> None:
    limited = chat_error(429, "Rate limit reached")
    limited.headers = {"retry-after-ms": "40"}
    harness.server.queue(limited, chat_stream("recovered"))
    session = await harness.session()
    await session.prompt("hello")
    start = next(e for e in harness.events if e.type == "auto_retry_start")
    assert start.delay_ms == 40  # the backoff alone would be 10 ms
    assert start.error_message == "429 Rate limit reached (retry after 0.04 s)"
    assert session.get_last_assistant_text() == "recovered"
    assert len(harness.server.requests) == 2  # one retry, by the session only


async def test_a_long_retry_after_is_capped_by_max_retry_delay(harness: Harness) -> None:
    settings = {"retry": {"baseDelayMs": 10, "provider": {"maxRetryDelayMs": 30, "maxRetries": 0}}}
    harness.agent_dir.joinpath("settings.json").write_text(json.dumps(settings))
    limited = chat_error(503, "unavailable")
    limited.headers = {"Retry-After": "3600"}
    harness.server.queue(limited, chat_stream("recovered"))
    session = await harness.session()
    await session.prompt("hello")
    start = next(e for e in harness.events if e.type == "auto_retry_start")
    assert start.delay_ms == 30
    assert session.get_last_assistant_text() == "recovered"
