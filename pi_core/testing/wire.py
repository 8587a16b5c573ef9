"""Scripted answers in real wire formats, for the fake server (Chat Completions streaming)."""

from __future__ import annotations

import json
import uuid
from collections.abc import Sequence
from typing import Any

from pi_core.testing.fake_llm import FakeResponse


def chat_stream(
    text: str = "",
    *,
    tool_calls: Sequence[tuple[str, dict[str, Any]]] = (),
    reasoning: str = "",
    usage: tuple[int, int] = (10, 5),
    model: str = "fake-model",
    piece: int = 8,
    **response_options: Any,
) -> FakeResponse:
    """A streamed Chat Completions answer: reasoning, text, then tool calls (name, arguments)."""
    stream_id = f"chatcmpl-{uuid.uuid4().hex[:12]}"

    def chunk(delta: dict[str, Any], finish: str | None = None, **extra: Any) -> dict[str, Any]:
        choice = {"index": 0, "delta": delta, "finish_reason": finish}
        return {"id": stream_id, "object": "chat.completion.chunk", "created": 0,
                "model": model, "choices": [choice], **extra}  # fmt: skip

    events: list[dict[str, Any] | str] = [chunk({"role": "assistant", "content": ""})]
    for start in range(0, len(reasoning), piece):
        events.append(chunk({"reasoning_content": reasoning[start : start + piece]}))
    for start in range(0, len(text), piece):
        events.append(chunk({"content": text[start : start + piece]}))
    for index, (name, arguments) in enumerate(tool_calls):
        encoded = json.dumps(arguments)
        call_id = f"call_{uuid.uuid4().hex[:10]}"
        head = {"index": index, "id": call_id, "type": "function",
                "function": {"name": name, "arguments": ""}}  # fmt: skip
        events.append(chunk({"tool_calls": [head]}))
        for start in range(0, len(encoded), piece):
            part = {"index": index, "function": {"arguments": encoded[start : start + piece]}}
            events.append(chunk({"tool_calls": [part]}))
    finish = "tool_calls" if tool_calls else "stop"
    events.append(chunk({}, finish))
    prompt_tokens, completion_tokens = usage
    events.append(
        {"id": stream_id, "object": "chat.completion.chunk", "created": 0, "model": model,
         "choices": [], "usage": {"prompt_tokens": prompt_tokens,
                                  "completion_tokens": completion_tokens,
                                  "total_tokens": prompt_tokens + completion_tokens}}
    )  # fmt: skip
    events.append("[DONE]")
    return FakeResponse.sse(events, **response_options)


def chat_error(status: int, message: str, kind: str = "server_error") -> FakeResponse:
    """An error response as OpenAI-compatible servers send it."""
    return FakeResponse.json_body({"error": {"message": message, "type": kind}}, status=status)


def chat_models_json(base_url: str, model_id: str = "fake-model", **model: Any) -> dict[str, Any]:
    """A models.json that points provider `fake` at the fake server (Chat Completions)."""
    return {
        "providers": {
            "fake": {
                "baseUrl": base_url,
                "api": "openai-completions",
                "apiKey": "test-key",
                "models": [{"id": model_id, "name": "Fake model", "contextWindow": 128000,
                            "maxTokens": 4096, **model}],
            }
        }
    }  # fmt: skip
