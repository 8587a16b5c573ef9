"""Request bodies over a growing history: each request reuses the previous one's work (converted
messages and their JSON), and must send the very bytes a from-scratch encoding would."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from pi_plugin_anthropic import convert as anthropic_convert
from pi_plugin_anthropic import transport as anthropic_transport
from pi_plugin_openai import convert as openai_convert
from pi_plugin_openai import responses_convert
from pi_plugin_openai import transport as openai_transport

from pi_core.ai.model import Model
from pi_core.ai.protocol import LLMContext, StreamOptions
from pi_core.messages import (
    AssistantMessage,
    ImageContent,
    TextContent,
    ToolCall,
    ToolResultMessage,
    UserMessage,
)
from pi_core.messages.agent import AgentMessage, BashExecutionMessage
from pi_core.messages.convert import convert_to_llm
from pi_core.providers import EncodedParts

OPENAI = Model(id="gpt", api="openai-completions", provider="openai")
RESPONSES = Model(id="gpt-5", api="openai-responses", provider="openai", reasoning=True)
ANTHROPIC = Model(
    id="claude", api="anthropic-messages", provider="anthropic", input=["text", "image"]
)


def _reference(ordered: dict[str, Any]) -> bytes:
    return json.dumps(ordered, ensure_ascii=False, separators=(",", ":")).encode()


def _openai_body(messages: list[Any], system: str) -> tuple[bytes, bytes]:
    context = LLMContext(system_prompt=system, messages=messages)
    parts = EncodedParts()
    payload = openai_convert.build_payload(OPENAI, context, StreamOptions(), parts)
    spliced = openai_transport.encode_payload("chat/completions", payload, parts)
    return spliced, openai_transport.encode_payload("chat/completions", payload)


def _responses_body(messages: list[Any], system: str) -> tuple[bytes, bytes]:
    context = LLMContext(system_prompt=system, messages=messages)
    parts = EncodedParts()
    payload = responses_convert.build_payload(RESPONSES, context, StreamOptions(), parts)
    spliced = openai_transport.encode_payload("responses", payload, parts)
    return spliced, openai_transport.encode_payload("responses", payload)


def _anthropic_body(messages: list[Any], system: str) -> tuple[bytes, bytes]:
    context = LLMContext(system_prompt=system, messages=messages)
    parts = EncodedParts()
    payload = anthropic_convert.build_payload(ANTHROPIC, context, StreamOptions(), parts)
    return anthropic_transport.encode_payload(payload, parts), anthropic_transport.encode_payload(
        payload
    )


def _turns(model: Model) -> list[AgentMessage]:
    """A few prompts of tool calls, a call left unanswered, a failed turn, another model's turn."""
    own = {"api": model.api, "provider": model.provider, "model": model.id}
    steps: list[AgentMessage] = []
    for prompt in range(3):
        steps.append(UserMessage(content=f"prompt {prompt} é"))
        for call in range(2):
            call_id = f"c{prompt}{call}"
            steps.append(
                AssistantMessage(
                    **own,
                    content=[ToolCall(id=call_id, name="read", arguments={"n": 1e-7, "p": "x"})],
                    stop_reason="toolUse",
                )
            )
            steps.append(
                ToolResultMessage(
                    tool_call_id=call_id,
                    tool_name="read",
                    content=[TextContent(text=f"result \u2028 {call}")],
                )
            )
        steps.append(AssistantMessage(**own, content=[TextContent(text="done")]))
    steps += [
        AssistantMessage(
            **own, content=[ToolCall(id="lost", name="ls", arguments={})], stop_reason="toolUse"
        ),
        AssistantMessage(**own, stop_reason="error", error_message="boom"),
        BashExecutionMessage(command="ls", output="a\nb", exit_code=0),
        UserMessage(
            content=[TextContent(text="see"), ImageContent(data="aGk=", mime_type="image/png")]
        ),
        AssistantMessage(
            api="other-api",
            provider="other",
            model="o",
            content=[ToolCall(id="x|y", name="ls", arguments={})],
            stop_reason="toolUse",
        ),
        ToolResultMessage(tool_call_id="x|y", tool_name="ls", content=[TextContent(text="r")]),
    ]
    return steps


@pytest.mark.parametrize(
    ("model", "body"),
    [(OPENAI, _openai_body), (RESPONSES, _responses_body), (ANTHROPIC, _anthropic_body)],
    ids=["completions", "responses", "anthropic"],
)
def test_each_request_sends_the_bytes_of_a_fresh_encoding(
    model: Model, body: Callable[[list[Any], str], tuple[bytes, bytes]]
) -> None:
    steps = _turns(model)
    # from scratch first: copies are new objects, so nothing is resumed or found in a cache
    fresh = [
        body(convert_to_llm([m.model_copy() for m in steps[:count]]), "system")[1]
        for count in range(1, len(steps) + 1)
    ]
    transcript: list[AgentMessage] = []
    for step, expected in zip(steps, fresh, strict=True):
        transcript.append(step)
        spliced, full = body(convert_to_llm(transcript), "system")
        assert spliced == full == expected
    # the system prompt changes (a tool was enabled); then a compaction replaced the start
    spliced, full = body(convert_to_llm(transcript), "another system prompt")
    assert spliced == full and b"another system prompt" in spliced
    compacted = [UserMessage(content="summary"), *transcript[5:]]
    spliced, full = body(convert_to_llm(compacted), "system")
    assert spliced == full
    assert json.loads(spliced) == json.loads(body(convert_to_llm(list(compacted)), "system")[1])


def test_anthropic_request_converts_only_what_follows_the_last_assistant_message(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    transcript = list(_turns(ANTHROPIC))[:12]  # two prompts, each ending in "done"
    _anthropic_body(convert_to_llm(transcript), "system")
    added: list[Any] = []
    original = anthropic_convert._Turns.add

    def counting_add(self: Any, message: Any) -> bool:
        added.append(message)
        return original(self, message)

    monkeypatch.setattr(anthropic_convert._Turns, "add", counting_add)
    transcript.append(UserMessage(content="one more"))
    spliced, full = _anthropic_body(convert_to_llm(transcript), "system")
    assert spliced == full
    assert added == [transcript[-1]]  # the 12 earlier messages were taken as they were
