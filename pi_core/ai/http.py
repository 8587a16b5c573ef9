"""Streaming requests to LLM HTTP APIs over httpx: pooled clients, SSE, HTTP errors.

Provider plugins import this module inside their stream functions, so neither httpx nor TLS set-up
is paid at start-up. `open_stream` retries a request whose answer has not started as pi's provider
SDKs do (see `transport_retry`); what it cannot absorb goes to the session, which retries the turn
(see `agent_session.retry`) with the delay `http_error` reads (`retry-after-ms` / `Retry-After`).
"""

from __future__ import annotations

import asyncio
import email.utils
import json
import ssl
import sys
import time
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from contextlib import asynccontextmanager
from typing import Any, TypeVar

import pydantic_core

from pi_core.abort import AbortError, AbortSignal
from pi_core.ai.sse import decode_sse
from pi_core.ai.transport_retry import RetryPolicy as RetryPolicy  # plugins build one
from pi_core.ai.transport_retry import delay_ms, status_is_retryable

if "httpx" not in sys.modules:
    # httpx's own command-line tool (`httpx._main`), which `import httpx` loads, imports rich,
    # pygments and click when they are installed (as they are here): ~0.15 s and 6 MiB that no
    # request needs. A None entry makes that import fail, and httpx carries on without its CLI.
    sys.modules["httpx._main"] = None  # type: ignore[assignment]
    try:
        import httpx
    finally:
        del sys.modules["httpx._main"]
import httpx

TIMEOUT = httpx.Timeout(600.0, connect=10.0)
"""Ten seconds to connect; otherwise ten minutes without a byte (not ten minutes in total), so a
long thinking stream is never cut while it still sends something."""

T = TypeVar("T")


class ProviderHTTPError(Exception):
    """A non-2xx answer: its status, the body (parsed JSON, or text) and the delay it asked for."""

    def __init__(self, status: int, body: Any, text: str, retry_after_ms: int | None) -> None:
        self.status = status
        self.body = body
        self.text = text or "status code (no body)"
        self.retry_after_ms = retry_after_ms
        super().__init__(f"{status} {self.text}")

    @property
    def api_message(self) -> str | None:
        """Return the server's own message (`error.message` in the JSON body), if it sent one."""
        body = self.body
        if isinstance(body, dict):
            inner = body.get("error", body)
            message = inner.get("message") if isinstance(inner, dict) else inner
            return message if isinstance(message, str) and message else None
        return None


# --- clients ------------------------------------------------------------------------------


class _Endpoint:
    """One base URL's pooled client, its transport when requests may skip the client, and the
    parsed URLs of its paths."""

    def __init__(self, base_url: str) -> None:
        # No TLS set-up (loading the CA bundle) for plain-http endpoints such as a local server.
        verify = not base_url.startswith("http://")
        self.direct: httpx.AsyncBaseTransport | None = None
        from pi_core.ai import traffic

        if traffic.requested():  # PI_HTTP_RECORD / PI_HTTP_REPLAY: see `traffic`
            self.direct = traffic.traffic_transport(
                lambda: asyncio_transport(verify), verify, base_url
            )
            self.client = httpx.AsyncClient(timeout=TIMEOUT, verify=verify, transport=self.direct)
        elif _proxied():
            # httpx mounts the environment's proxies only when it builds its own transport
            self.client = httpx.AsyncClient(timeout=TIMEOUT, verify=verify)
        else:
            # The client's send adds what these requests never use (auth flows, redirects, a
            # cookie jar: ~0.15 ms a request), so `open_stream` hands them to the transport.
            self.direct = asyncio_transport(verify)
            self.client = httpx.AsyncClient(timeout=TIMEOUT, verify=verify, transport=self.direct)
        self.base_url = base_url
        self.urls: dict[str, httpx.URL] = {}

    def url(self, path: str) -> httpx.URL:
        """Return the parsed URL of `path` under the base URL."""
        url = self.urls.get(path)
        if url is None:
            url = self.urls[path] = httpx.URL(join_url(self.base_url, path))
        return url


def _proxied() -> bool:
    """Return whether the environment names a proxy (`HTTPS_PROXY`, `ALL_PROXY`, ...)."""
    import urllib.request

    return any(key in ("http", "https", "all") for key in urllib.request.getproxies())


class _Pool:
    """The endpoints of one event loop, and the generator that closes them when the loop ends."""

    def __init__(self) -> None:
        self.endpoints: dict[str, _Endpoint] = {}
        self.closer = _close_at_loop_end(self.endpoints)


_POOLS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Pool] = weakref.WeakKeyDictionary()


async def _close_at_loop_end(endpoints: dict[str, _Endpoint]) -> AsyncIterator[None]:
    # Suspended at its `yield` for the loop's lifetime: `asyncio.run` (and every runner that calls
    # `loop.shutdown_asyncgens()`) closes it before closing the loop, which closes the clients.
    try:
        yield
    finally:
        for endpoint in endpoints.values():
            await endpoint.client.aclose()
        endpoints.clear()


async def _endpoint(base_url: str) -> _Endpoint:
    loop = asyncio.get_running_loop()
    pool = _POOLS.get(loop)
    if pool is None:
        pool = _POOLS[loop] = _Pool()
        await anext(pool.closer)
    endpoint = pool.endpoints.get(base_url)
    if endpoint is None:
        endpoint = pool.endpoints[base_url] = _Endpoint(base_url)
    return endpoint


async def client_for(base_url: str) -> httpx.AsyncClient:
    """Return the pooled client for `base_url` on this event loop (one connection pool each).

    Headers are sent per request, so every session and key shares the endpoint's connections.
    """
    return (await _endpoint(base_url)).client


def asyncio_transport(verify: bool | ssl.SSLContext) -> httpx.AsyncHTTPTransport:
    """Return httpx's transport with its connection pool on our asyncio network backend.

    httpx has no argument for httpcore's `network_backend`, so the pool is replaced with one built
    as httpx builds it (its default limits) plus the backend. Not used when the environment names
    a proxy: the client then builds its own transports, the proxy's included.
    """
    import httpcore

    from pi_core.ai.net import AsyncioBackend

    ssl_context = httpx.create_ssl_context(verify=verify)  # the CA bundle is loaded once
    transport = httpx.AsyncHTTPTransport(verify=ssl_context)
    transport._pool = httpcore.AsyncConnectionPool(
        ssl_context=ssl_context,
        max_connections=100,
        max_keepalive_connections=20,
        keepalive_expiry=5.0,
        network_backend=AsyncioBackend(),
    )
    return transport


def join_url(base_url: str, path: str) -> str:
    """Return `base_url` + `/path` with exactly one slash between them."""
    return f"{base_url.rstrip('/')}/{path.lstrip('/')}"


# --- one request --------------------------------------------------------------------------


async def _unless_aborted(awaitable: Awaitable[T], signal: AbortSignal | None) -> T:
    """Await `awaitable`, cancelling it (and raising CancelledError) as soon as `signal` fires."""
    if signal is None:
        return await awaitable
    try:
        return await signal.race(awaitable)
    except AbortError:
        raise asyncio.CancelledError from None


RetrySleep = Callable[[float], Awaitable[None]]

retry_sleep: RetrySleep = asyncio.sleep
"""How a retry waits (seconds); tests replace it to see the waits without sitting them out."""


@asynccontextmanager
async def open_stream(
    base_url: str,
    path: str,
    body: bytes,
    headers: Mapping[str, str],
    signal: AbortSignal | None = None,
    on_response: Callable[[int, dict[str, str]], Awaitable[None]] | None = None,
    retry: RetryPolicy | None = None,
) -> AsyncIterator[httpx.Response]:
    """POST `body` to `base_url` + `path` and yield the streaming response once its status is 2xx.

    A connection failure or a retryable status (`transport_retry`) sends the request again, up to
    `retry.max_retries` times (default 2) after the wait the server asked for or a backoff; then a
    4xx/5xx answer raises `ProviderHTTPError` and a failure to connect raises as httpx raised it.
    An abort cancels the request (or the wait) at once, and closes the response (ending the stream
    at once) while it is read. The response is closed when the block ends, whatever happened.
    """
    if signal is not None and signal.aborted:
        raise asyncio.CancelledError
    policy = retry or RetryPolicy()
    endpoint = await _endpoint(base_url)
    retries_done = 0
    while True:
        outcome = await _attempt(endpoint, path, body, headers, signal, policy)
        if isinstance(outcome, httpx.Response) and outcome.status_code < 400:
            response = outcome
            break
        if isinstance(outcome, httpx.Response):
            retryable = status_is_retryable(outcome.status_code, outcome.headers)
            if retries_done >= policy.max_retries or not retryable:
                try:
                    await _unless_aborted(outcome.aread(), signal)
                finally:
                    await outcome.aclose()
                raise http_error(outcome)
            await outcome.aclose()  # the SDKs do not read the body of an answer they retry
            wait = delay_ms(outcome.headers, retries_done)
        else:
            if retries_done >= policy.max_retries:
                raise outcome
            wait = delay_ms(None, retries_done)
        await _unless_aborted(retry_sleep(wait / 1000), signal)
        retries_done += 1
    remove: Callable[[], None] | None = None
    try:
        if signal is not None:
            remove = signal.add_listener(lambda: _close_soon(response))
        if on_response is not None:
            await on_response(response.status_code, dict(response.headers))
        yield response
    finally:
        if remove is not None:
            remove()
        await response.aclose()


async def _attempt(
    endpoint: _Endpoint,
    path: str,
    body: bytes,
    headers: Mapping[str, str],
    signal: AbortSignal | None,
    policy: RetryPolicy,
) -> httpx.Response | httpx.TransportError:
    """Send the request once: its response, or the failure that kept it from getting one."""
    client = endpoint.client
    request = client.build_request("POST", endpoint.url(path), content=body, headers=headers)
    if endpoint.direct is not None:
        sent = _send_direct(endpoint.direct, request)
    else:
        sent = client.send(request, stream=True)
    try:
        if policy.timeout_s is None:
            response = await _unless_aborted(sent, signal)
        else:
            async with asyncio.timeout(policy.timeout_s):
                response = await _unless_aborted(sent, signal)
    except httpx.TransportError as error:
        if signal is not None and signal.aborted:
            raise asyncio.CancelledError from None
        return error
    except TimeoutError:
        return httpx.TimeoutException("Request timed out", request=request)
    return response


async def _send_direct(
    transport: httpx.AsyncBaseTransport, request: httpx.Request
) -> httpx.Response:
    """Send a request the client built straight to its transport (what `client.send` ends in)."""
    response = await transport.handle_async_request(request)
    response.request = request
    return response


_CLOSING: set[asyncio.Task[None]] = set()
"""Responses being closed after an abort (a task is only weakly referenced by the loop)."""


def _close_soon(response: httpx.Response) -> None:
    """Close the response from an abort listener (a plain callback): the read in progress ends."""
    task = asyncio.ensure_future(response.aclose())
    _CLOSING.add(task)
    task.add_done_callback(_CLOSING.discard)


def is_json(response: httpx.Response) -> bool:
    """Return whether the answer is one JSON body (a server that ignored `stream: true`)."""
    return "json" in response.headers.get("content-type", "").split(";")[0]


async def read_json(response: httpx.Response) -> Any:
    """Read and parse the whole body."""
    return json.loads(await response.aread())


# --- errors -------------------------------------------------------------------------------


def http_error(response: httpx.Response) -> ProviderHTTPError:
    """Build the error for a 4xx/5xx response whose body has been read."""
    text = response.text.strip()
    body: Any = None
    if text:
        try:
            body = json.loads(text)
        except ValueError:
            body = text
    return ProviderHTTPError(response.status_code, body, text, retry_after_ms(response.headers))


def retry_after_ms(headers: Mapping[str, str]) -> int | None:
    """Return the delay the server asked for: `retry-after-ms`, else `Retry-After` (seconds or an
    HTTP date); None when absent or unreadable."""
    value = headers.get("retry-after-ms")
    if value:
        try:
            return max(0, round(float(value)))
        except ValueError:
            pass
    value = headers.get("retry-after")
    if not value:
        return None
    try:
        return max(0, round(float(value) * 1000))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0, round((when.timestamp() - time.time()) * 1000))


# --- server-sent events -------------------------------------------------------------------


def sse_events(response: httpx.Response) -> AsyncIterator[tuple[str, str]]:
    """Yield each server-sent event of the body as (event name, data); see `sse.decode_sse`."""
    return decode_sse(response.aiter_bytes())


def event_json(data: str) -> Any:
    """Parse an event's data as JSON: pydantic-core's parser, about three times faster than
    `json.loads` on the small objects a stream sends; data it refuses (a lone surrogate escape,
    broken JSON) goes to `json.loads`, which parses it or raises its usual error."""
    try:
        return pydantic_core.from_json(data)
    except ValueError:
        return json.loads(data)


def describe_failure(error: BaseException) -> str:
    """Return a classifiable message for an error that is not an HTTP status: network failures
    read `Connection error: …` and time-outs `Request timed out`, which the session retries."""
    if isinstance(error, httpx.TimeoutException):
        return f"Request timed out ({type(error).__name__})"
    if isinstance(error, httpx.TransportError):
        return f"Connection error: {error or type(error).__name__}"
    return str(error) or type(error).__name__
