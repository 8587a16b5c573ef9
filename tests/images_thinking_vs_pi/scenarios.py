"""The scripts both agents run (pi 0.73.1 to record, ours in the tests): an RPC process against
the loopback fake, and what of its records and request bodies the tests compare."""

from __future__ import annotations

import base64
import io
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pi_core.testing import FakeLLMServer, FakeResponse
from pi_core.testing.wire import chat_stream
from tests.cli.rpc_script import RpcProcess, Step
from tests.fake_home import FakeHome

LEVELS = ("off", "minimal", "low", "medium", "high", "xhigh")
FIXTURES = Path(__file__).resolve().parent / "fixtures"


@dataclass
class Scenario:
    """A provider and model in models.json, settings, and what the RPC client does."""

    name: str
    api: str
    model: dict[str, Any]
    settings: dict[str, Any] = field(default_factory=dict)
    kind: str = "levels"
    """"levels": cycle, set and prompt at each level; "image": read a PNG; "attach": `@big.png`
    on the command line (print mode)."""


_IMAGE_MODEL = {"id": "vision", "input": ["text", "image"], "reasoning": False}
SCENARIOS = [
    Scenario("image-resize", "openai-completions", _IMAGE_MODEL, kind="image"),
    Scenario(
        "image-blocked",
        "openai-completions",
        _IMAGE_MODEL,
        {"images": {"blockImages": True}},
        kind="image",
    ),
    Scenario(
        "image-no-resize",
        "openai-completions",
        _IMAGE_MODEL,
        {"images": {"autoResize": False}},
        kind="image",
    ),
    Scenario("attach-resize", "openai-completions", _IMAGE_MODEL, kind="attach"),
    Scenario("completions-plain", "openai-completions", {"id": "thinker", "reasoning": True}),
    Scenario(
        "completions-map",
        "openai-completions",
        {
            "id": "mapped",
            "reasoning": True,
            "thinkingLevelMap": {"minimal": None, "low": "lite", "xhigh": "max"},
        },
    ),
    Scenario("responses-plain", "openai-responses", {"id": "gpt-5.2", "reasoning": True}),
    Scenario(
        "responses-map",
        "openai-responses",
        {"id": "gpt-5.4", "reasoning": True, "thinkingLevelMap": {"off": None, "xhigh": "xhigh"}},
    ),
    Scenario(
        "anthropic-budget",
        "anthropic-messages",
        {"id": "claude-sonnet-4-5", "reasoning": True, "maxTokens": 64000},
    ),
    Scenario(
        "anthropic-adaptive",
        "anthropic-messages",
        {
            "id": "claude-opus-4-6",
            "reasoning": True,
            "maxTokens": 128000,
            "thinkingLevelMap": {"xhigh": "max"},
        },
    ),
]
BY_NAME = {scenario.name: scenario for scenario in SCENARIOS}

THINKING_KEYS = (
    "max_tokens",
    "thinking",
    "output_config",
    "reasoning",
    "reasoning_effort",
    "include",
    "enable_thinking",
)
"""The body fields the thinking level decides (what the level tests compare)."""


def big_png() -> bytes:
    """A 3000x1500 PNG (stripes, so it stays small)."""
    from PIL import Image

    image = Image.new("RGB", (3000, 1500), (240, 240, 240))
    for x in range(0, 3000, 100):
        image.paste((200, 30, 30), (x, 0, x + 20, 1500))
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()


def _models_json(scenario: Scenario, base_url: str) -> dict[str, Any]:
    model = {"name": scenario.model["id"], "contextWindow": 128000, "maxTokens": 16384}
    return {
        "providers": {
            "fake": {
                "baseUrl": base_url,
                "api": scenario.api,
                "apiKey": "test-key",
                "models": [{**model, **scenario.model}],
            }
        }
    }


def _error() -> FakeResponse:
    """A non-retryable answer: both agents end the turn with an error and send nothing more."""
    return FakeResponse.json_body({"error": {"message": "scripted", "type": "invalid"}}, 400)


def _steps(scenario: Scenario) -> tuple[list[Step], list[FakeResponse]]:
    if scenario.kind == "attach":
        return [], []
    prompt = {"type": "prompt", "message": "Look at big.png"}
    if scenario.kind == "image":
        answers = [chat_stream(tool_calls=[("read", {"path": "big.png"})]), chat_stream("ok")]
        return [Step(prompt, until="agent_end")], answers
    steps = [Step({"type": "set_thinking_level", "level": "off"})]
    steps += [Step({"type": "cycle_thinking_level"}) for _ in range(len(LEVELS) + 1)]
    for level in LEVELS:
        steps.append(Step({"type": "set_thinking_level", "level": level}))
        steps.append(Step({"type": "get_state"}))
        steps.append(Step({"type": "prompt", "message": "hi"}, until="agent_end"))
    return steps, [_error() for _ in LEVELS]


def run(command: list[str], scenario: Scenario, root: Path) -> dict[str, Any]:
    """Run `command` (a pi) through the scenario; return its RPC answers and request bodies."""
    home = FakeHome.create(root, {"big.png": big_png()})
    with FakeLLMServer() as server:
        home.configure(_models_json(scenario, server.base_url), scenario.settings)
        steps, answers = _steps(scenario)
        model = f"fake/{scenario.model['id']}"
        if scenario.kind == "attach":
            server.queue(chat_stream("ok"))
            argv = ["-p", "--no-session", "--model", model, "@big.png", "What is it?"]
            done = home.run([*command, *argv], timeout=60)
            records, stderr = [], done.stderr
        else:
            server.queue(*answers)
            argv = ["--mode", "rpc", "--no-session", "--model", model]
            process = RpcProcess([*command, *argv], home.cwd, home.env())
            records = process.run(steps)
            stderr = process.close()
        bodies = [request.json() for request in server.requests]
    answers_seen = [
        {"command": r["command"], "data": r.get("data")}
        for r in records
        if r.get("type") == "response" and r["command"] != "prompt"
    ]
    return {"responses": answers_seen, "bodies": [_redact(b) for b in bodies], "stderr": stderr}


def _image_label(url: str) -> str:
    """A data URL's image as `mime WxH` (encoders differ, so the bytes are not compared)."""
    from PIL import Image

    head, data = url.split(",", 1)
    with Image.open(io.BytesIO(base64.b64decode(data))) as image:
        return f"{head.removeprefix('data:').removesuffix(';base64')} {image.width}x{image.height}"


def _redact(value: Any) -> Any:
    """The body with every image replaced by its type and size."""
    if isinstance(value, dict):
        if value.get("type") == "image_url":
            return {"type": "image_url", "image_url": _image_label(value["image_url"]["url"])}
        return {key: _redact(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_redact(item) for item in value]
    return value


def thinking_fields(body: dict[str, Any]) -> dict[str, Any]:
    """The fields of a body the thinking level decides."""
    return {key: body[key] for key in THINKING_KEYS if key in body}


def after_first_user(body: dict[str, Any]) -> list[dict[str, Any]]:
    """The messages after the prompt: the tool call, its result and what follows it (ids out)."""
    messages = body["messages"]
    first = next(i for i, m in enumerate(messages) if m["role"] == "user")
    out = []
    for message in messages[first + 1 :]:
        message = {k: v for k, v in message.items() if k not in ("tool_call_id", "tool_calls")}
        out.append(message)
    return out


def prompt_content(body: dict[str, Any]) -> Any:
    """The content of the first user message (the prompt with its attachments)."""
    return next(m for m in body["messages"] if m["role"] == "user")["content"]
