"""The scripts both agents run against the loopback fake, and how to run one, for the request-body
comparison with pi 0.73.1 (`record_pi.py` records pi's; the test runs ours the same way)."""

from __future__ import annotations

import json
import struct
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pi_core.testing import FakeLLMServer, FakeResponse, chat_stream
from tests.fake_home import FakeHome


@dataclass(frozen=True)
class Provider:
    """A provider entry of models.json: its name, wire format and any extra model fields."""

    name: str
    api: str = "openai-completions"
    model: str = "test-model"
    compat: dict[str, Any] | None = None
    path: str = ""
    """Appended to the fake's URL: a base-URL hint pi detects by substring (`/api.deepseek.com`)."""
    extra: dict[str, Any] | None = None
    """More model fields (`thinkingLevelMap`)."""


OVERRIDES = {
    "requiresToolResultName": True,
    "requiresThinkingAsText": True,
    "zaiToolStream": True,
    "supportsStrictMode": False,
    "thinkingFormat": "qwen-chat-template",
    "maxTokensField": "max_tokens",
    "supportsUsageInStreaming": False,
    "supportsStore": False,
    "supportsDeveloperRole": False,
    "cacheControlFormat": "anthropic",
}
"""Every flag a models.json `compat` may turn away from the generic provider's value."""


PROVIDERS = {
    "generic": Provider("fake"),
    "deepseek": Provider("deepseek"),
    "zai": Provider("zai"),
    "xai": Provider("xai"),
    "cerebras": Provider("cerebras"),
    "openrouter": Provider("openrouter", model="anthropic/claude-test"),
    "moonshot": Provider("moonshotai"),
    "groq": Provider("groq"),
    "opencode": Provider("opencode"),
    "deepseek-url": Provider("proxy", path="/api.deepseek.com/v1"),
    "zai-url": Provider("proxy", path="/api.z.ai/api/paas/v4"),
    "xai-url": Provider("proxy", path="/api.x.ai/v1"),
    "moonshot-url": Provider("proxy", path="/api.moonshot.ai/v1"),
    "chutes-url": Provider("proxy", path="/llm.chutes.ai/v1"),
    "openrouter-url": Provider("proxy", path="/openrouter.ai/api/v1"),
    "overrides": Provider("fake", compat=OVERRIDES),
    "qwen": Provider("fake", compat={"thinkingFormat": "qwen"}),
    "deepseek-as-openai": Provider(
        "deepseek",
        compat={"thinkingFormat": "openai", "requiresReasoningContentOnAssistantMessages": False},
    ),
    "level-map": Provider("fake", extra={"thinkingLevelMap": {"off": "none", "high": "max"}}),
    "anthropic": Provider("anthropic", api="anthropic-messages", model="claude-sonnet-4-5"),
    "anthropic-not-eager": Provider(
        "anthropic",
        api="anthropic-messages",
        model="claude-sonnet-4-5",
        compat={"supportsEagerToolInputStreaming": False},
    ),
}
"""Detection by provider name, and by base URL: the fake's host is 127.0.0.1, so a host hint
(`api.deepseek.com`, …) goes in the URL's path, where pi's substring test finds it as well."""

SCRIPTS = ("plain", "tool", "image")
TOOL_IMAGE = "tool_image"
"""A tool that returns an image: recorded for Anthropic only (on Chat Completions, pi's extra user
message with the image belongs to the image work, tested there)."""


def _png() -> bytes:
    """A valid 2x2 RGB PNG, small enough that pi sends it unchanged."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    rows = b"".join(b"\x00" + b"\xff\x00\x00" * 2 for _ in range(2))
    header = struct.pack(">IIBBBBB", 2, 2, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )


def scripts_for(provider: Provider) -> tuple[str, ...]:
    """The scripts run for `provider`."""
    extra = (TOOL_IMAGE,) if provider.api == "anthropic-messages" else ()
    return SCRIPTS + extra


def models_json(provider: Provider, base_url: str) -> dict[str, Any]:
    """A models.json with one reasoning, image-capable model of `provider` at the fake."""
    model: dict[str, Any] = {
        "id": provider.model,
        "name": "Test model",
        "reasoning": True,
        "input": ["text", "image"],
        "contextWindow": 200000,
        "maxTokens": 64000,
    }
    if provider.compat is not None:
        model["compat"] = provider.compat
    model.update(provider.extra or {})
    entry = {
        "baseUrl": base_url + provider.path,
        "api": provider.api,
        "apiKey": "test-key",
        "models": [model],
    }
    return {"providers": {provider.name: entry}}


def anthropic_stream(text: str, reasoning: str = "", *tools: dict[str, Any]) -> FakeResponse:
    """A streamed Messages API answer: reasoning, text, then tool calls (`name`, `arguments`)."""
    message = {"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
               "content": [], "stop_reason": None, "stop_sequence": None,
               "usage": {"input_tokens": 10, "output_tokens": 1}}  # fmt: skip
    events: list[dict[str, Any]] = [{"type": "message_start", "message": message}]
    blocks: list[tuple[dict[str, Any], dict[str, Any]]] = []
    if reasoning:
        blocks.append(({"type": "thinking", "thinking": ""},
                       {"type": "thinking_delta", "thinking": reasoning}))  # fmt: skip
        blocks.append(({"type": "thinking", "thinking": ""},
                       {"type": "signature_delta", "signature": "sig-1"}))  # fmt: skip
    if text:
        blocks.append(({"type": "text", "text": ""}, {"type": "text_delta", "text": text}))
    for number, tool in enumerate(tools, 1):
        start = {"type": "tool_use", "id": f"toolu_{number}", "name": tool["name"], "input": {}}
        delta = {"type": "input_json_delta", "partial_json": json.dumps(tool["arguments"])}
        blocks.append((start, delta))
    index = -1
    for start, delta in blocks:
        if delta["type"] != "signature_delta":
            if index >= 0:
                events.append({"type": "content_block_stop", "index": index})
            index += 1
            events.append({"type": "content_block_start", "index": index, "content_block": start})
        events.append({"type": "content_block_delta", "index": index, "delta": delta})
    events.append({"type": "content_block_stop", "index": index})
    stop = "tool_use" if tools else "end_turn"
    events.append({"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None},
                   "usage": {"output_tokens": 7}})  # fmt: skip
    events.append({"type": "message_stop"})
    return FakeResponse.sse(events, named=True)


def answers(provider: Provider, script: str) -> list[FakeResponse]:
    """What the fake answers, request by request."""
    read = {
        "name": "read",
        "arguments": {"path": "pic.png" if script == TOOL_IMAGE else "note.txt"},
    }
    if provider.api == "anthropic-messages":
        if script in ("tool", TOOL_IMAGE):
            first = anthropic_stream("", "Let me read it.", read)
            return [first, anthropic_stream("It says hello.")]
        return [anthropic_stream("Hi.")]
    if script == "tool":
        first = chat_stream(
            reasoning="Let me read it.",
            tool_calls=[("read", read["arguments"])],
            model=provider.model,
        )
        return [first, chat_stream("It says hello.", model=provider.model)]
    return [chat_stream("Hi.", model=provider.model)]


def arguments(script: str) -> list[str]:
    """The command-line arguments after the program, the same for both agents."""
    common = ["-p", "--no-session", "--tools", "read"]
    if script == "plain":
        return [*common, "--thinking", "off", "Say hi."]
    if script in ("tool", TOOL_IMAGE):
        return [*common, "--thinking", "high", "Read note.txt."]
    return [*common, "--thinking", "off", "@pic.png", "Describe it."]


def run(command: list[str], provider: Provider, script: str, root: Path) -> list[Any]:
    """Run `command` + the script's arguments in a fresh home against the fake; return the
    request bodies it sent (with `root` written `<root>`)."""
    home = FakeHome.create(root, {"note.txt": b"hello\n", "pic.png": _png()})
    with FakeLLMServer() as server:
        settings = {"defaultProvider": provider.name, "defaultModel": provider.model}
        home.configure(models_json(provider, server.base_url), settings)
        server.queue(*answers(provider, script))
        home.run([*command, *arguments(script)])
        bodies = json.dumps([request.json() for request in server.requests])
    # the project's path (an @file's name) differs from run to run
    return list(json.loads(bodies.replace(str(root), "<root>")))
