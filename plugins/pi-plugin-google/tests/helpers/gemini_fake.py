"""Gemini `streamGenerateContent?alt=sse` answers for the loopback fake server."""

from __future__ import annotations

import json
from typing import Any

from pi_core.testing import FakeResponse


def chunk(
    parts: list[dict[str, Any]],
    finish: str | None = None,
    usage: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """One `GenerateContentResponse` with a single candidate."""
    candidate: dict[str, Any] = {"content": {"role": "model", "parts": parts}, "index": 0}
    if finish:
        candidate["finishReason"] = finish
    body: dict[str, Any] = {"candidates": [candidate], "responseId": "resp-1"}
    body["usageMetadata"] = usage or {"promptTokenCount": 10, "totalTokenCount": 10}
    body["modelVersion"] = "gemini-test"
    return body


def stream(*chunks: dict[str, Any], **kwargs: Any) -> FakeResponse:
    """The chunks as server-sent events, separated by CRLF CRLF as Google sends them."""
    pieces = [f"data: {json.dumps(c)}\r\n\r\n".encode() for c in chunks]
    return FakeResponse(chunks=pieces, **kwargs)


USAGE = {
    "promptTokenCount": 120,
    "candidatesTokenCount": 7,
    "thoughtsTokenCount": 5,
    "cachedContentTokenCount": 20,
    "totalTokenCount": 132,
}


def reply(
    text: str = "",
    thought: str = "",
    calls: tuple[tuple[str, dict[str, Any]], ...] = (),
    signature: str | None = None,
    **kwargs: Any,
) -> FakeResponse:
    """A streamed answer: a thought summary, text in two pieces, then function calls (the last
    carries `signature` as its `thoughtSignature`, as Gemini 3 sends it)."""
    chunks: list[dict[str, Any]] = []
    if thought:
        chunks.append(chunk([{"text": thought, "thought": True}]))
    if text:
        half = len(text) // 2
        chunks.append(chunk([{"text": text[:half]}]))
        chunks.append(chunk([{"text": text[half:]}]))
    parts: list[dict[str, Any]] = []
    for name, args in calls:
        parts.append({"functionCall": {"name": name, "args": args}})
    if parts and signature:
        parts[0]["thoughtSignature"] = signature
    chunks.append(chunk(parts or [{"text": ""}], finish="STOP", usage=USAGE))
    return stream(*chunks, **kwargs)
