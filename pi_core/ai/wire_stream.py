"""The skeleton every HTTP provider streams with: payload hook, start, request, abort, error, done.

A wire API supplies what differs (`WireAPI`): its payload, its request (URL, body, headers), how
the response's bytes become wire events (`decode`: SSE by default, any framing otherwise) and a
`WireTranslator` that turns those events into pi's, through the `AssistantMessageBuilder`.
`run_stream` does the rest the same way for all of them. httpx is imported on the first request.
"""

from __future__ import annotations

import asyncio
import inspect
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from pi_core.ai.builder import AssistantMessageBuilder
from pi_core.ai.message_cache import EncodedParts
from pi_core.ai.model import Model
from pi_core.ai.protocol import LLMContext, StreamOptions
from pi_core.messages.llm import StopReason
from pi_core.messages.stream import AssistantMessageEvent

if TYPE_CHECKING:
    import httpx

E = TypeVar("E")

Events = Iterable[AssistantMessageEvent]


@dataclass(frozen=True)
class WireRequest:
    """One POST to a wire API: base URL, path (a query string may follow), body and headers."""

    base_url: str
    path: str
    body: bytes
    headers: Mapping[str, str]


def with_headers(request: WireRequest, overrides: Mapping[str, str | None]) -> WireRequest:
    """Return `request` with `overrides` applied: a name in any case replaces the header, and
    None removes it."""
    names = {name.lower() for name in overrides}
    headers = {k: v for k, v in request.headers.items() if k.lower() not in names}
    headers.update({k: v for k, v in overrides.items() if v is not None})
    return replace(request, headers=headers)


class WireTranslator(ABC, Generic[E]):
    """Turns one response's wire events into pi's stream events; subclass it per wire API.

    Raise from any method to end the response with an error: the message is the exception's text
    as the `WireAPI`'s `describe_error` gives it.
    """

    def __init__(self, builder: AssistantMessageBuilder) -> None:
        self.builder = builder

    @abstractmethod
    def handle(self, event: E) -> Events:
        """Translate one wire event (unknown kinds give nothing)."""

    def handle_body(self, body: Any) -> Events:
        """Translate the one JSON body a server sent instead of a stream."""
        raise ValueError(f"expected a stream, the server answered with JSON: {body!r:.200}")

    def close(self) -> Events:
        """Close whatever block is still open (at the end, and when the stream fails)."""
        return ()

    @abstractmethod
    def finish(self) -> StopReason | None:
        """The stream ended: return how the response stopped; raise when it is incomplete (the
        wire never said it was done) or ended in an error the wire reported."""


async def sse_json(response: httpx.Response) -> AsyncIterator[Any]:
    """The default decoding: each server-sent event's data, parsed as JSON."""
    from pi_core.ai.http import event_json, sse_events

    async for _, data in sse_events(response):
        yield event_json(data)


def describe_error(error: BaseException) -> str:
    """The default error text: an HTTP error's status and the API's own message (else its body)
    with the delay the server asked for, e.g. `429 Rate limit reached (retry after 20 s)`;
    `Connection error: …` or `Request timed out` for the network; else the exception's text."""
    from pi_core.ai.errors import with_retry_after
    from pi_core.ai.http import ProviderHTTPError, describe_failure

    if isinstance(error, ProviderHTTPError):
        text = f"{error.status} {error.api_message or error.text}"
        return with_retry_after(text, error.retry_after_ms)
    return describe_failure(error)


@dataclass(frozen=True)
class WireAPI(Generic[E]):
    """What one wire API adds to `run_stream`'s skeleton.

    `payload` builds the request body's JSON (the `before_provider_request` hook may replace it);
    `request` turns the final payload into the HTTP request (a coroutine function may, to fetch
    a token first: it should honour `options.signal` itself); `decode` reads the response's bytes
    as wire events; `translator` makes the object that turns them into pi's events.
    """

    payload: Callable[[Model, LLMContext, StreamOptions, EncodedParts], Any]
    request: Callable[
        [Model, StreamOptions, Any, EncodedParts], WireRequest | Awaitable[WireRequest]
    ]
    translator: Callable[[AssistantMessageBuilder], WireTranslator[E]]
    decode: Callable[[httpx.Response], AsyncIterator[E]] = sse_json
    describe_error: Callable[[BaseException], str] = describe_error


async def run_stream(
    wire: WireAPI[E], model: Model, context: LLMContext, options: StreamOptions
) -> AsyncIterator[AssistantMessageEvent]:
    """Stream one response of `wire`: `start`, the translator's events, then `done` or `error`.

    The request goes through `pi_core.ai.http.open_stream` (transport retries, abort, HTTP
    errors), with `options.header_overrides` applied to its headers last; a JSON answer to a
    streaming request goes to `handle_body`. An abort ends the response with `stop_reason`
    "aborted"; any failure with "error" and a message the session's `classify_error` reads.
    Whatever streamed before is kept.
    """
    builder = AssistantMessageBuilder(model)
    translator = wire.translator(builder)
    signal = options.signal
    parts = EncodedParts()
    payload = wire.payload(model, context, options, parts)
    if options.on_payload is not None:
        payload = await options.on_payload(payload) or payload
    yield builder.start()
    try:
        from pi_core.ai.http import RetryPolicy, is_json, open_stream, read_json

        request = wire.request(model, options, payload, parts)
        if inspect.isawaitable(request):
            request = await request
        if options.header_overrides:
            request = with_headers(request, options.header_overrides)
        async with open_stream(
            request.base_url,
            request.path,
            request.body,
            request.headers,
            signal,
            options.on_response,
            RetryPolicy.of(options.max_retries, options.timeout_ms),
        ) as response:
            if is_json(response):
                for out in translator.handle_body(await read_json(response)):
                    yield out
            else:
                async for event in wire.decode(response):
                    for out in translator.handle(event):
                        yield out
        if signal is not None and signal.aborted:
            raise asyncio.CancelledError
        stop = translator.finish()
    except (asyncio.CancelledError, Exception) as error:
        for out in translator.close():
            yield out
        if (signal is not None and signal.aborted) or isinstance(error, asyncio.CancelledError):
            yield builder.error("Operation aborted", aborted=True)
        else:
            yield builder.error(wire.describe_error(error))
        return
    for out in translator.close():
        yield out
    yield builder.done(stop)
