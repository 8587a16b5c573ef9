"""AWS's binary event-stream framing, read from a streaming httpx response.

botocore's `EventStreamBuffer` does the framing and checks both CRC32s (prelude and message); it is
fed the response's chunks as they arrive. botocore is imported on the first response, never at
start-up.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import httpx


class BedrockStreamException(Exception):
    """An exception frame inside the stream (`:message-type` exception or error)."""

    def __init__(self, kind: str, message: str) -> None:
        self.kind = kind
        self.message = message
        super().__init__(f"{kind}: {message}")


def _text(value: Any) -> str:
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)


def frame_event(headers: dict[str, Any], payload: bytes) -> dict[str, Any]:
    """One decoded frame as `{event-type: payload}` (the SDK's shape); exceptions raise."""
    message_type = headers.get(":message-type")
    if message_type == "exception":
        kind = _text(headers.get(":exception-type", "exception"))
        body = json.loads(payload) if payload else {}
        message = body.get("message") or body.get("Message") if isinstance(body, dict) else None
        raise BedrockStreamException(kind, message or _text(payload))
    if message_type == "error":
        code = _text(headers.get(":error-code", "error"))
        raise BedrockStreamException(code, _text(headers.get(":error-message", "")))
    return {_text(headers.get(":event-type", "")): json.loads(payload) if payload else {}}


async def converse_events(response: httpx.Response) -> AsyncIterator[dict[str, Any]]:
    """The ConverseStream events of a response, one `{event-type: payload}` dict per frame."""
    from botocore.eventstream import EventStreamBuffer

    buffer = EventStreamBuffer()
    async for chunk in response.aiter_bytes():
        buffer.add_data(chunk)
        for message in buffer:
            yield frame_event(message.headers, message.payload)
