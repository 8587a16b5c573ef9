"""One request through the SDK: the client, abort handling, and SSE-or-JSON detection.

Some OpenAI-compatible servers ignore `stream: true` and answer with one JSON body; the caller
gets either the SDK's event stream or that body as a dict, and converts both the same way.
"""

from __future__ import annotations

import asyncio
import json
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any, TypeVar

from pi_core.agent.abort import AbortSignal
from pi_core.ai.model import Model
from pi_core.ai.protocol import StreamOptions

if TYPE_CHECKING:
    from openai import AsyncOpenAI

T = TypeVar("T")


_CLIENTS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[Any, AsyncOpenAI]] = (
    weakref.WeakKeyDictionary()
)


def make_client(model: Model, options: StreamOptions, headers: dict[str, str]) -> AsyncOpenAI:
    """Return an SDK client for the model's base URL; retries are left to the session.

    Clients are kept per event loop, base URL, key and headers: building one (connection pool,
    TLS context) costs tens of milliseconds, which every turn of a tool loop would pay again.
    """
    from openai import AsyncOpenAI

    all_headers = {**(model.headers or {}), **headers, **(options.headers or {})}
    key = (model.base_url, options.api_key, tuple(sorted(all_headers.items())))
    clients = _CLIENTS.setdefault(asyncio.get_running_loop(), {})
    client = clients.get(key)
    if client is None:
        client = clients[key] = AsyncOpenAI(
            base_url=model.base_url or None,
            api_key=options.api_key or "no-key",
            default_headers=all_headers,
            max_retries=0,
        )
    return client


async def _unless_aborted(awaitable: Awaitable[T], signal: AbortSignal | None) -> T:
    """Await `awaitable`, cancelling it (and raising CancelledError) as soon as `signal` fires."""
    if signal is None:
        return await awaitable
    task = asyncio.ensure_future(awaitable)

    def cancel() -> None:
        """Cancel the request."""
        task.cancel()

    remove = signal.add_listener(cancel)
    try:
        return await task
    finally:
        remove()


@asynccontextmanager
async def open_response(
    create: Callable[..., Any],
    payload: dict[str, Any],
    options: StreamOptions,
    *,
    plain_events: bool = False,
) -> AsyncIterator[Any]:
    """Send the request; yield the SDK's event stream, or the JSON body (a dict) sent instead.

    With `plain_events`, the stream yields each event's JSON as a plain dict: the SDK's typed
    chunk objects cost more to build than everything else a streamed token needs.
    """
    signal = options.signal
    if signal is not None and signal.aborted:
        raise asyncio.CancelledError
    manager = create(**payload)
    response = await _unless_aborted(manager.__aenter__(), signal)
    remove = None
    try:
        if signal is not None:
            remove = signal.add_listener(lambda: asyncio.ensure_future(response.close()))
        if options.on_response is not None:
            await options.on_response(response.status_code, dict(response.headers))
        content_type = response.headers.get("content-type", "")
        if "json" in content_type.split(";")[0]:
            yield await response.json()
        elif plain_events:
            yield _plain_events(response)
        else:
            yield await response.parse()
    finally:
        if remove is not None:
            remove()
        await response.close()


async def _plain_events(response: Any) -> AsyncIterator[dict[str, Any]]:
    """The stream's `data:` payloads as dicts (the SDK's SSE decoder does the framing)."""
    from openai import APIError
    from openai._streaming import SSEDecoder

    async for event in SSEDecoder().aiter_bytes(response.http_response.aiter_bytes()):
        if event.data.startswith("[DONE]"):
            break
        data = json.loads(event.data)
        if isinstance(data, dict) and data.get("error"):
            error = data["error"]
            message = error.get("message") if isinstance(error, dict) else None
            raise APIError(
                message=message or "An error occurred during streaming",
                request=response.http_response.request,
                body=error,
            )
        yield data
