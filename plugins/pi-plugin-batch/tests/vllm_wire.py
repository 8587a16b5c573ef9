"""Streamed Chat Completions answers shaped as vLLM sends them with `return_token_ids` and
`logprobs`: the prompt's ids on the first chunk, each chunk's ids and logprobs on its choice."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from pi_core.testing import FakeResponse


@dataclass
class TokenAnswer:
    """An answer's SSE response and the token data a client should keep from it."""

    response: FakeResponse
    prompt_token_ids: list[int]
    token_ids: list[int] = field(default_factory=list)
    logprobs: list[dict[str, Any]] = field(default_factory=list)


def token_stream(
    first_id: int,
    text: str = "",
    tool_call: tuple[str, dict[str, Any]] | None = None,
    *,
    prompt_token_ids: list[int],
    top: int = 2,
) -> TokenAnswer:
    """One token per piece of text or tool arguments (ids from `first_id`), each with logprobs."""
    answer = TokenAnswer(FakeResponse(), list(prompt_token_ids))
    events: list[dict[str, Any] | str] = []

    def chunk(delta: dict[str, Any], piece: str = "", finish: str | None = None) -> None:
        choice: dict[str, Any] = {"index": 0, "delta": delta, "finish_reason": finish}
        if piece:
            token_id = first_id + len(answer.token_ids)
            entry = {"token": piece, "logprob": -0.5 * len(answer.token_ids),
                     "bytes": list(piece.encode()),
                     "top_logprobs": [{"token": f"{piece}{n}", "logprob": -1.0 - n,
                                       "bytes": None} for n in range(top)]}  # fmt: skip
            answer.token_ids.append(token_id)
            answer.logprobs.append(entry)
            choice["token_ids"] = [token_id]
            choice["logprobs"] = {"content": [entry]}
        events.append({"id": "chatcmpl-vllm", "object": "chat.completion.chunk", "created": 0,
                       "model": "fake-model", "choices": [choice]})  # fmt: skip

    chunk({"role": "assistant", "content": ""})
    events[0]["prompt_token_ids"] = answer.prompt_token_ids  # type: ignore[index]
    for start in range(0, len(text), 4):
        chunk({"content": text[start : start + 4]}, text[start : start + 4])
    if tool_call is not None:
        name, arguments = tool_call
        head = {"index": 0, "id": "call_1", "type": "function",
                "function": {"name": name, "arguments": ""}}  # fmt: skip
        chunk({"tool_calls": [head]})
        encoded = json.dumps(arguments)
        for start in range(0, len(encoded), 6):
            part = encoded[start : start + 6]
            chunk({"tool_calls": [{"index": 0, "function": {"arguments": part}}]}, part)
    chunk({}, finish="tool_calls" if tool_call else "stop")
    events.append({"id": "chatcmpl-vllm", "object": "chat.completion.chunk", "created": 0,
                   "model": "fake-model", "choices": [],
                   "usage": {"prompt_tokens": 10, "completion_tokens": 5,
                             "total_tokens": 15}})  # fmt: skip
    events.append("[DONE]")
    answer.response = FakeResponse.sse(events)
    return answer
