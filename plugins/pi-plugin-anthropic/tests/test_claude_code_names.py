"""With a subscription token, tools go out under Claude Code's names and the answer's tool calls
come back under ours; other tools, and API-key requests, keep their names; every request says
`anthropic-dangerous-direct-browser-access: true`, as pi 0.73.1's do."""

from __future__ import annotations

from typing import Any

from pi_plugin_anthropic.stream import stream_messages

from pi_core.ai.model import Model
from pi_core.ai.protocol import LLMContext, StreamOptions, ToolSpec
from pi_core.messages import AssistantMessage, ToolCall, ToolResultMessage, UserMessage
from pi_core.testing import FakeLLMServer, FakeResponse

SCHEMA = {"type": "object", "properties": {}}
TOOLS = [ToolSpec(name, "", SCHEMA) for name in ("bash", "todowrite", "my_tool")]


def _history() -> list[Any]:
    call = ToolCall(id="toolu_0", name="bash", arguments={"command": "ls"})
    assistant = AssistantMessage(
        content=[call], api="anthropic-messages", provider="anthropic", model="claude"
    )
    result = ToolResultMessage(tool_call_id="toolu_0", tool_name="bash", content=[])
    return [UserMessage(content="go"), assistant, result]


def _answer(*names: str) -> FakeResponse:
    """A streamed answer calling the tools `names`."""
    message = {"id": "m", "type": "message", "role": "assistant", "model": "claude",
               "content": [], "usage": {"input_tokens": 1, "output_tokens": 1}}  # fmt: skip
    events: list[dict[str, Any]] = [{"type": "message_start", "message": message}]
    for index, name in enumerate(names):
        block = {"type": "tool_use", "id": f"toolu_{index + 1}", "name": name, "input": {}}
        events += [
            {"type": "content_block_start", "index": index, "content_block": block},
            {"type": "content_block_stop", "index": index},
        ]
    events += [
        {"type": "message_delta", "delta": {"stop_reason": "tool_use"}, "usage": {}},
        {"type": "message_stop"},
    ]
    return FakeResponse.sse(events, named=True)


async def _exchange(key: str, *answered: str) -> tuple[dict[str, Any], dict[str, str], list[str]]:
    """Send the history with `TOOLS` using `key`; return the body and headers sent and the names
    of the answer's tool calls."""
    with FakeLLMServer() as server:
        server.queue(_answer(*answered))
        model = Model(
            id="claude", api="anthropic-messages", provider="anthropic", base_url=server.base_url
        )
        context = LLMContext(system_prompt="sys", messages=_history(), tools=TOOLS)
        options = StreamOptions(api_key=key, max_retries=0)
        events = [e async for e in stream_messages(model, context, options)]
        (request,) = server.requests
    final = events[-1].message
    calls = [block.name for block in final.content if isinstance(block, ToolCall)]
    return request.json(), request.headers, calls


def _sent_names(body: dict[str, Any]) -> tuple[list[str], list[str]]:
    tools = [tool["name"] for tool in body["tools"]]
    history = [
        block["name"]
        for message in body["messages"]
        for block in message["content"]
        if isinstance(block, dict) and block["type"] == "tool_use"
    ]
    return tools, history


async def test_subscription_token_uses_claude_code_tool_names_both_ways() -> None:
    body, headers, calls = await _exchange("sk-ant-oat01-x", "Bash", "MY_TOOL", "WebSearch")
    assert _sent_names(body) == (["Bash", "TodoWrite", "my_tool"], ["Bash"])
    # back to the request's tool matching without case; a name it lacks stays as it came
    assert calls == ["bash", "my_tool", "WebSearch"]
    assert headers["anthropic-dangerous-direct-browser-access"] == "true"


async def test_api_key_keeps_tool_names_and_still_says_browser_access() -> None:
    body, headers, calls = await _exchange("sk-ant-api03-x", "Bash")
    assert _sent_names(body) == (["bash", "todowrite", "my_tool"], ["bash"])
    assert calls == ["Bash"]
    assert headers["anthropic-dangerous-direct-browser-access"] == "true"
