"""The providers' HTTP layer: SSE framing, Retry-After, error text and the client pool."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from collections.abc import AsyncIterator
from email.utils import formatdate

import httpx
import pytest

from pi_core.ai.errors import retry_after_ms as message_retry_after_ms
from pi_core.ai.errors import with_retry_after
from pi_core.ai.http import (
    client_for,
    describe_failure,
    event_json,
    http_error,
    retry_after_ms,
    sse_events,
)
from pi_core.messages import AssistantMessage


class Chunks(httpx.AsyncByteStream):
    """A response body delivered in the given pieces."""

    def __init__(self, pieces: list[bytes]) -> None:
        self.pieces = pieces

    async def __aiter__(self) -> AsyncIterator[bytes]:
        for piece in self.pieces:
            yield piece


async def events_of(pieces: list[bytes]) -> list[tuple[str, str]]:
    response = httpx.Response(200, stream=Chunks(pieces))
    return [event async for event in sse_events(response)]


async def test_sse_framing_whatever_the_chunk_boundaries() -> None:
    body = (
        b": a comment\r\n"
        b'event: message_start\r\ndata: {"a": 1}\r\n\r\n'
        b"id: 7\nretry: 100\ndata: first line\ndata:second line\n\n"
        b"data: caf\xc3\xa9 \xe2\x9c\x93\n\n"
        b"\n\n"  # blank lines without data dispatch nothing
        b"event: ping\ndata: {}\n\n"
        b"data: [DONE]"  # the last event lacks its blank line, the line itself is complete
        b"\n"
    )
    expected = [
        ("message_start", '{"a": 1}'),
        ("message", "first line\nsecond line"),
        ("message", "café ✓"),
        ("ping", "{}"),
        ("message", "[DONE]"),
    ]
    assert await events_of([body]) == expected
    assert await events_of([body[i : i + 1] for i in range(len(body))]) == expected
    assert await events_of([body[:37], body[37:40], body[40:]]) == expected
    for cut in range(len(body)):  # every split in two (a CR and its LF apart, too)
        assert await events_of([body[:cut], body[cut:]]) == expected, cut


async def test_one_line_events_and_others_mix_in_one_read() -> None:
    body = (
        b"data: a\n\n"
        b"event: named\ndata: b\n\n"
        b"data: c\n\n"
        b"data: d1\ndata: d2\n\n"
        b"\n\n\n"
        b"data: e\r\n\r\n"
        b"data:f\n\n"
        b"data: g\n"
    )
    expected = [
        ("message", "a"),
        ("named", "b"),
        ("message", "c"),
        ("message", "d1\nd2"),
        ("message", "e"),
        ("message", "f"),
        ("message", "g"),
    ]
    assert await events_of([body]) == expected
    assert await events_of([b"event: named\n", b"data: b\n\n", b"data: c\n\n"]) == [
        ("named", "b"),
        ("message", "c"),
    ]


def test_event_json_parses_like_json_loads_and_fails_like_it() -> None:
    chunk = '{"choices":[{"delta":{"content":"caf\u00e9 \\"x\\""}}],"n":12345678901234567890}'
    assert event_json(chunk) == json.loads(chunk)
    assert event_json('{"a":"\\ud800"}') == {"a": "\ud800"}  # a lone surrogate escape
    with pytest.raises(json.JSONDecodeError):
        event_json('{"cut')


async def test_a_partial_last_line_is_not_delivered() -> None:
    assert await events_of([b"data: one\n\n", b'data: {"cut']) == [("message", "one")]


def test_retry_after_headers() -> None:
    assert retry_after_ms(httpx.Headers({"retry-after": "3"})) == 3000
    assert retry_after_ms(httpx.Headers({"Retry-After": "0.5"})) == 500
    assert retry_after_ms(httpx.Headers({"retry-after-ms": "250", "retry-after": "9"})) == 250
    assert retry_after_ms(httpx.Headers({"retry-after-ms": "x", "retry-after": "2"})) == 2000
    in_a_minute = formatdate(timeval=None, usegmt=True)
    assert 0 <= (retry_after_ms(httpx.Headers({"retry-after": in_a_minute})) or 0) <= 1000
    assert retry_after_ms(httpx.Headers({"retry-after": "soon"})) is None
    assert retry_after_ms(httpx.Headers({})) is None


def test_retry_after_travels_in_the_error_message() -> None:
    text = with_retry_after("429 Rate limit reached", 1500)
    assert text == "429 Rate limit reached (retry after 1.5 s)"
    assert message_retry_after_ms(AssistantMessage(error_message=text)) == 1500
    assert with_retry_after("500 boom", None) == "500 boom"
    assert message_retry_after_ms(AssistantMessage(error_message="500 boom")) is None


def test_http_errors_keep_status_body_and_delay() -> None:
    response = httpx.Response(
        429, json={"error": {"message": "Rate limit"}}, headers={"retry-after": "2"}
    )
    error = http_error(response)
    assert (error.status, error.api_message, error.retry_after_ms) == (429, "Rate limit", 2000)
    empty = http_error(httpx.Response(400))
    assert str(empty) == "400 status code (no body)" and empty.body is None
    html = http_error(httpx.Response(502, text="<h1>Bad gateway</h1>"))
    assert html.body == "<h1>Bad gateway</h1>" and html.api_message is None


def test_network_failures_read_as_retryable_messages() -> None:
    assert describe_failure(httpx.ConnectError("refused")) == "Connection error: refused"
    assert describe_failure(httpx.ReadTimeout("slow")).startswith("Request timed out")
    assert describe_failure(ValueError("bad json")) == "bad json"


def test_one_client_per_endpoint_per_loop_closed_when_the_loop_ends() -> None:
    async def clients() -> tuple[httpx.AsyncClient, ...]:
        a = await client_for("http://127.0.0.1:1/v1")
        b = await client_for("http://127.0.0.1:1/v1")
        c = await client_for("https://api.example.invalid")
        assert a is b and a is not c and not a.is_closed
        return a, c

    first = asyncio.run(clients())
    second = asyncio.run(clients())
    assert first[0] is not second[0]  # a new loop gets its own pool
    assert all(client.is_closed for client in (*first, *second))


@pytest.mark.parametrize("url", ["http://localhost:1/v1", "https://api.example.invalid/v1"])
def test_tls_is_set_up_only_for_https(url: str) -> None:
    async def verify_mode() -> bool:
        client = await client_for(url)
        transport = client._transport
        assert isinstance(transport, httpx.AsyncHTTPTransport)
        pool = transport._pool
        return bool(pool._ssl_context and pool._ssl_context.check_hostname)

    assert asyncio.run(verify_mode()) is url.startswith("https")


def test_importing_the_http_layer_leaves_out_httpx_command_line_tool() -> None:
    probe = (
        "import sys, pi_core.ai.http, httpx; "
        "print(sorted({'rich', 'pygments', 'httpx._main'} & set(sys.modules)), "
        "callable(httpx.AsyncClient), 'httpx._main' in sys.modules)"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert result.stdout.strip() == "[] True False", result.stderr


async def test_a_large_buffered_body_lets_other_tasks_run_while_it_is_parsed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import pi_core.ai.sse as sse

    monkeypatch.setattr(sse, "LOOP_SLICE_SECONDS", 0.0)  # yield at every check
    body = b"data: x\n\n" * 5_000  # one read: without yielding, nothing else would run
    turns = 0
    seen_during: list[int] = []

    async def other_task() -> None:
        nonlocal turns
        while True:
            turns += 1
            await asyncio.sleep(0)

    task = asyncio.ensure_future(other_task())
    await asyncio.sleep(0)
    start = turns
    count = 0
    async for _ in sse_events(httpx.Response(200, stream=Chunks([body]))):
        count += 1
        if count == 4_000:
            seen_during.append(turns - start)
    task.cancel()
    assert count == 5_000
    assert seen_during[0] > 10
