"""`open_stream` retries a request whose answer has not started, as pi's provider SDKs do: which
statuses, how long it waits (the waits are recorded, not sat out), and that an abort ends a wait."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator

import pytest

import pi_core.ai.http as http
from pi_core.abort import AbortController
from pi_core.ai.http import ProviderHTTPError, open_stream
from pi_core.ai.transport_retry import RetryPolicy, delay_ms
from pi_core.testing import FakeLLMServer, FakeResponse, chat_error, chat_stream


@pytest.fixture
def server() -> Iterator[FakeLLMServer]:
    with FakeLLMServer() as fake:
        yield fake


@pytest.fixture
def waits(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The waits `open_stream` asks for, in seconds; none is sat out."""
    asked: list[float] = []

    async def record(seconds: float) -> None:
        asked.append(seconds)

    monkeypatch.setattr(http, "retry_sleep", record)
    return asked


def error(status: int, **headers: str) -> FakeResponse:
    response = chat_error(status, f"status {status}")
    response.headers = headers
    return response


async def post(server: FakeLLMServer, retry: RetryPolicy | None = None) -> int:
    """Send one request; return the status of the answer it ends with."""
    async with open_stream(server.base_url, "chat/completions", b"{}", {}, retry=retry) as response:
        await response.aread()
        return response.status_code


async def test_server_errors_are_retried_twice_after_the_sdks_backoff(
    server: FakeLLMServer, waits: list[float]
) -> None:
    server.queue(error(503), error(500), chat_stream("hi"))
    assert await post(server) == 200
    assert len(server.requests) == 3
    first, second = waits
    assert 0.375 <= first <= 0.5 and 0.75 <= second <= 1.0


async def test_the_third_failure_is_the_error(server: FakeLLMServer, waits: list[float]) -> None:
    server.queue(error(529), error(529), error(529), chat_stream("never sent"))
    with pytest.raises(ProviderHTTPError) as raised:
        await post(server)
    assert raised.value.status == 529 and raised.value.api_message == "status 529"
    assert len(server.requests) == 3 and len(waits) == 2


@pytest.mark.parametrize(
    ("headers", "expected"),
    [
        ({"Retry-After": "7"}, 7.0),
        ({"retry-after-ms": "1500"}, 1.5),
        ({"retry-after-ms": "250", "Retry-After": "9"}, 0.25),
        ({"Retry-After": "0"}, 0.0),
        ({"Retry-After": "3600"}, 3600.0),  # the SDKs do not cap what the server asks
    ],
)
async def test_the_wait_is_what_the_server_asked(
    server: FakeLLMServer, waits: list[float], headers: dict[str, str], expected: float
) -> None:
    server.queue(error(429, **headers), chat_stream("hi"))
    assert await post(server) == 200
    assert waits == [pytest.approx(expected)]


@pytest.mark.parametrize("status", [408, 409, 429, 500, 502, 503, 504, 529])
async def test_retryable_statuses(server: FakeLLMServer, waits: list[float], status: int) -> None:
    server.queue(error(status), chat_stream("hi"))
    assert await post(server) == 200


@pytest.mark.parametrize(
    "response",
    [error(400), error(401), error(404), error(422), error(503, **{"x-should-retry": "false"})],
)
async def test_other_errors_are_not_retried(
    server: FakeLLMServer, waits: list[float], response: FakeResponse
) -> None:
    server.queue(response, chat_stream("never sent"))
    with pytest.raises(ProviderHTTPError):
        await post(server)
    assert len(server.requests) == 1 and waits == []


async def test_the_server_can_ask_for_a_retry(server: FakeLLMServer, waits: list[float]) -> None:
    server.queue(error(400, **{"x-should-retry": "true"}), chat_stream("hi"))
    assert await post(server) == 200


async def test_a_reset_connection_is_retried(server: FakeLLMServer, waits: list[float]) -> None:
    server.queue(FakeResponse(drop_connection=True), FakeResponse(drop_connection=True))
    server.queue(chat_stream("hi"))
    assert await post(server) == 200
    assert len(server.requests) == 3


async def test_max_retries_sets_how_many(server: FakeLLMServer, waits: list[float]) -> None:
    server.queue(error(503), chat_stream("hi"))
    with pytest.raises(ProviderHTTPError):
        await post(server, RetryPolicy.of(0, None))
    assert len(server.requests) == 1 and server.discard_queued() == 1
    server.queue(*(error(503) for _ in range(4)), chat_stream("hi"))
    assert await post(server, RetryPolicy.of(4, None)) == 200
    assert len(server.requests) == 6


async def test_an_attempt_that_outlives_the_timeout_is_sent_again(
    server: FakeLLMServer, waits: list[float]
) -> None:
    second_sent = threading.Event()

    def hold_the_first(request: object) -> FakeResponse | None:
        if len(server.requests) == 1:
            second_sent.wait(30)  # no answer until the client has given up and sent again
            return chat_stream("too late")
        second_sent.set()
        return None

    server.route(hold_the_first)
    server.queue(chat_stream("hi"))
    assert await post(server, RetryPolicy.of(1, 200)) == 200
    assert len(server.requests) == 2


async def test_an_abort_ends_the_wait_at_once(server: FakeLLMServer) -> None:
    server.queue(error(503, **{"Retry-After": "3600"}))
    controller = AbortController()
    waiting = asyncio.Event()

    async def wait(seconds: float) -> None:
        waiting.set()
        await asyncio.sleep(seconds)

    async def request() -> None:
        async with open_stream(server.base_url, "x", b"{}", {}, controller.signal):
            pass

    http_sleep, http.retry_sleep = http.retry_sleep, wait
    try:
        task = asyncio.create_task(request())
        await asyncio.wait_for(waiting.wait(), 30)
        controller.abort()
        with pytest.raises(asyncio.CancelledError):
            await asyncio.wait_for(task, 5)
    finally:
        http.retry_sleep = http_sleep


def test_backoff_doubles_to_eight_seconds_less_up_to_a_quarter() -> None:
    assert [delay_ms(None, n, jitter=0) for n in range(6)] == [500, 1000, 2000, 4000, 8000, 8000]
    assert delay_ms(None, 0, jitter=1) == 375
    assert delay_ms({"retry-after": "not a date"}, 1, jitter=0) == 1000
