"""Scripted Responses API streams for the loopback fake: reasoning, text, function calls."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from pi_core.testing import FakeResponse


def usage(input_tokens: int = 30, cached: int = 10, output: int = 7) -> dict[str, Any]:
    """A Responses API usage object."""
    return {"input_tokens": input_tokens, "input_tokens_details": {"cached_tokens": cached},
            "output_tokens": output, "total_tokens": input_tokens + output}  # fmt: skip


def responses_events(
    text: str = "",
    *,
    reasoning: str = "",
    calls: Sequence[tuple[str, dict[str, Any]]] = (),
    status: str = "completed",
    final: str = "response.completed",
    piece: int = 4,
) -> list[dict[str, Any]]:
    """The events of one streamed response: reasoning, text, then calls (name, arguments)."""
    events: list[dict[str, Any]] = [
        {"type": "response.created", "response": {"id": "resp_1", "status": "in_progress"}}
    ]
    index = 0
    if reasoning:
        item = {"id": "rs_1", "type": "reasoning", "summary": []}
        part = {"type": "summary_text", "text": ""}
        events.append({"type": "response.output_item.added", "output_index": index, "item": item})
        events.append({"type": "response.reasoning_summary_part.added", "item_id": "rs_1",
                       "output_index": index, "summary_index": 0, "part": part})  # fmt: skip
        for start in range(0, len(reasoning), piece):
            events.append({"type": "response.reasoning_summary_text.delta", "item_id": "rs_1",
                           "output_index": index, "summary_index": 0,
                           "delta": reasoning[start : start + piece]})  # fmt: skip
        done = {**item, "encrypted_content": "gAAAA-opaque",
                "summary": [{"type": "summary_text", "text": reasoning}]}  # fmt: skip
        events.append({"type": "response.output_item.done", "output_index": index, "item": done})
        index += 1
    if text:
        item = {"id": "msg_1", "type": "message", "role": "assistant", "status": "in_progress",
                "content": [], "phase": "final_answer"}  # fmt: skip
        events.append({"type": "response.output_item.added", "output_index": index, "item": item})
        for start in range(0, len(text), piece):
            events.append({"type": "response.output_text.delta", "item_id": "msg_1",
                           "output_index": index, "content_index": 0,
                           "delta": text[start : start + piece]})  # fmt: skip
        content = [{"type": "output_text", "text": text, "annotations": []}]
        done = {**item, "status": "completed", "content": content}
        events.append({"type": "response.output_item.done", "output_index": index, "item": done})
        index += 1
    for number, (name, arguments) in enumerate(calls, 1):
        encoded = json.dumps(arguments)
        item = {"id": f"fc_{number}", "type": "function_call", "call_id": f"call_{number}",
                "name": name, "arguments": "", "status": "in_progress"}  # fmt: skip
        events.append({"type": "response.output_item.added", "output_index": index, "item": item})
        events.append({"type": "response.function_call_arguments.delta", "item_id": item["id"],
                       "output_index": index, "delta": encoded})  # fmt: skip
        done = {**item, "arguments": encoded, "status": "completed"}
        events.append({"type": "response.output_item.done", "output_index": index, "item": done})
        index += 1
    response = {"id": "resp_1", "status": status, "output": [], "usage": usage()}
    events.append({"type": final, "response": response})
    return events


def responses_stream(text: str = "", **options: Any) -> FakeResponse:
    """`responses_events` as an SSE answer (named events, as OpenAI sends them)."""
    stream_options = {k: options.pop(k) for k in list(options) if k in _RESPONSE_FIELDS}
    return FakeResponse.sse(responses_events(text, **options), named=True, **stream_options)


_RESPONSE_FIELDS = {"chunk_delay", "cut_after_chunks", "pause_after_chunks", "headers", "status"}
