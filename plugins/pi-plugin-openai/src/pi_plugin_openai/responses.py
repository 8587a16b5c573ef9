"""The `openai-responses` stream: the Responses API over httpx, as pi's events."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

from pi_core.providers import (
    AssistantMessageBuilder,
    AssistantMessageEvent,
    EncodedParts,
    LLMContext,
    Model,
    StreamOptions,
)
from pi_plugin_openai.errors import describe_error
from pi_plugin_openai.responses_convert import build_payload, session_headers
from pi_plugin_openai.responses_events import ResponsesEvents
from pi_plugin_openai.transport import open_response

_CUT = "Connection lost: the stream ended without response.completed"


async def stream_responses(
    model: Model, context: LLMContext, options: StreamOptions
) -> AsyncIterator[AssistantMessageEvent]:
    """Stream one Responses API response."""
    builder = AssistantMessageBuilder(model)
    output = ResponsesEvents(builder)
    signal = options.signal
    parts = EncodedParts()
    payload = build_payload(model, context, options, parts)
    if options.on_payload is not None:
        payload = await options.on_payload(payload) or payload
    yield builder.start()
    try:
        headers = session_headers(model, options)
        async with open_response(model, "responses", payload, options, headers, parts) as body:
            if isinstance(body, dict):
                for event in output.replay(body):
                    yield event
            else:
                async for item in body:
                    for event in output.handle(item):
                        yield event
        if signal is not None and signal.aborted:
            raise asyncio.CancelledError
        if not output.finished:
            raise ConnectionError(_CUT)
    except (asyncio.CancelledError, Exception) as error:
        for event in output.close():
            yield event
        if (signal is not None and signal.aborted) or isinstance(error, asyncio.CancelledError):
            yield builder.error("Operation aborted", aborted=True)
        else:
            yield builder.error(describe_error(error))
        return
    yield builder.done(output.stop)
