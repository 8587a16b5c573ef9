"""Token ids and logprobs a Chat Completions server returns are kept on the assistant message."""

from __future__ import annotations

from typing import Any

from pi_plugin_openai.completions import stream_completions

from pi_core.ai.model import Model
from pi_core.ai.protocol import LLMContext, StreamOptions
from pi_core.messages import UserMessage
from pi_core.testing import FakeLLMServer, FakeResponse


def _entry(token: str, logprob: float) -> dict[str, Any]:
    return {"token": token, "logprob": logprob, "bytes": list(token.encode()),
            "top_logprobs": [{"token": token, "logprob": logprob, "bytes": None}]}  # fmt: skip


async def _final(server: FakeLLMServer) -> Any:
    model = Model(id="m", api="openai-completions", provider="p", base_url=server.base_url)
    context = LLMContext(system_prompt="sys", messages=[UserMessage(content="hi")])
    events = [e async for e in stream_completions(model, context, StreamOptions(api_key="k"))]
    assert events[-1].type == "done", events[-1]
    return events[-1].message


async def test_a_stream_with_token_ids_and_logprobs() -> None:
    def chunk(delta: dict[str, Any], ids: list[int], finish: str | None = None) -> Any:
        choice = {"index": 0, "delta": delta, "finish_reason": finish, "token_ids": ids,
                  "logprobs": {"content": [_entry(str(i), -i / 10) for i in ids]}}  # fmt: skip
        return {"id": "c", "object": "chat.completion.chunk", "model": "m", "choices": [choice]}

    first = chunk({"role": "assistant", "content": ""}, [])
    first["prompt_token_ids"] = [1, 2, 3]
    events = [first, chunk({"reasoning_content": "hm"}, [5]), chunk({"content": "Hel"}, [6, 7]),
              chunk({"content": "lo"}, [8], "stop"), "[DONE]"]  # fmt: skip
    with FakeLLMServer() as server:
        server.queue(FakeResponse.sse(events))
        message = await _final(server)

    assert message.token_data.prompt_token_ids == [1, 2, 3]
    assert message.token_data.token_ids == [5, 6, 7, 8]
    assert [e["token"] for e in message.token_data.logprobs] == ["5", "6", "7", "8"]
    assert message.to_wire()["tokenData"]["tokenIds"] == [5, 6, 7, 8]


async def test_a_whole_json_body_with_reasoning_keeps_them_once() -> None:
    body = {"id": "c", "object": "chat.completion", "model": "m", "prompt_token_ids": [1, 2],
            "choices": [{"index": 0, "finish_reason": "stop", "token_ids": [9, 10, 11],
                         "logprobs": {"content": [_entry("a", -0.1), _entry("b", -0.2)]},
                         "message": {"role": "assistant", "content": "ab",
                                     "reasoning_content": "think"}}]}  # fmt: skip
    with FakeLLMServer() as server:
        server.queue(FakeResponse.json_body(body))
        message = await _final(server)

    assert message.token_data.prompt_token_ids == [1, 2]
    assert message.token_data.token_ids == [9, 10, 11]
    assert [e["token"] for e in message.token_data.logprobs] == ["a", "b"]


async def test_a_stream_without_them_leaves_no_field() -> None:
    events = [{"id": "c", "object": "chat.completion.chunk", "model": "m",
               "choices": [{"index": 0, "delta": {"content": "hi"}, "finish_reason": "stop"}]},
              "[DONE]"]  # fmt: skip
    with FakeLLMServer() as server:
        server.queue(FakeResponse.sse(events))
        message = await _final(server)

    assert message.token_data is None
    assert "tokenData" not in message.to_wire()
