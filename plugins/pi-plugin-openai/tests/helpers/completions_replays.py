"""The recorded Chat Completions exchanges of OpenAI-compatible providers in `replays/`, how both
agents are pointed at one, and a comparable summary of pi's `--mode json` events."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPLAYS = Path(__file__).resolve().parents[1] / "replays"
PROVIDERS = {
    "openrouter": "openrouter",
    "groq": "groq",
    "xai": "xai",
    "cerebras": "cerebras",
    "deepseek": "deepseek",
    "zai": "zai",
    "openai-chat": "fake",
}
"""Replay folder → the provider name both agents use (pi detects compat flags by name)."""


@dataclass(frozen=True)
class Replay:
    """One recorded exchange: its response file, provider and model."""

    path: Path
    provider: str
    model: str
    status: int

    @property
    def key(self) -> str:
        """`folder__name`, unique across folders."""
        return f"{self.path.parent.name}__{self.path.stem}"


def _replays() -> list[Replay]:
    found = []
    for folder, provider in PROVIDERS.items():
        for meta in sorted((REPLAYS / folder).glob("*.request.json")):
            data = json.loads(meta.read_text())
            stem = meta.name.removesuffix(".request.json")
            (path,) = [p for p in meta.parent.glob(stem + ".*") if p != meta]
            model = str(data["request_body"]["model"])
            found.append(Replay(path, provider, model, int(data["status"])))
    return found


ALL = _replays()
STREAMED = [r for r in ALL if r.path.suffix == ".sse"]
ERRORS = [r for r in ALL if r.status >= 400]
BODIES = [r for r in ALL if r.path.suffix == ".json" and r.status < 400]
"""Whole JSON answers (to requests that asked for none of a stream)."""


def models_json(replay: Replay, base_url: str) -> dict[str, Any]:
    """A models.json giving `replay`'s provider its model on the fake (plain facts, no cost)."""
    model = {"id": replay.model, "api": "openai-completions", "reasoning": False}
    entry = {"baseUrl": base_url, "api": "openai-completions", "apiKey": "test-key",
             "models": [model]}  # fmt: skip
    return {"providers": {replay.provider: entry}}


def _event(event: dict[str, Any]) -> list[Any]:
    kind = event["type"]
    if kind.endswith("_delta"):
        return [kind, event["contentIndex"], event["delta"]]
    if kind == "toolcall_end":
        call = event["toolCall"]
        return [kind, event["contentIndex"], [call["id"], call["name"], call["arguments"]]]
    if kind.endswith("_end"):
        return [kind, event["contentIndex"], event["content"]]
    return [kind, event.get("contentIndex")]


def _block(block: dict[str, Any]) -> dict[str, Any]:
    """A content block without the per-run scratch pi may leave (`partialArgs`)."""
    return {k: v for k, v in block.items() if k != "partialArgs"}


def summary(lines: list[dict[str, Any]]) -> dict[str, Any]:
    """The first assistant answer of a `--mode json` run: each stream event (kind, index, delta /
    content / tool call) and the final message's content, tokens, stop reason and error."""
    events: list[list[Any]] = []
    for line in lines:
        if line.get("type") == "message_update":
            events.append(_event(line["assistantMessageEvent"]))
        elif line.get("type") == "message_end" and line["message"]["role"] == "assistant":
            message = line["message"]
            usage = message["usage"]
            return {
                "events": events,
                "message": {
                    "content": [_block(b) for b in message["content"]],
                    "usage": {k: usage[k] for k in ("input", "output", "cacheRead", "cacheWrite")},
                    "stopReason": message["stopReason"],
                    "errorMessage": message.get("errorMessage"),
                    "responseId": message.get("responseId"),
                    "responseModel": message.get("responseModel"),
                },
            }
    raise AssertionError("no assistant message in the run")
