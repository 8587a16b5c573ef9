"""The recorded Mistral responses in `replays/` and a comparable summary of pi's stream events."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

REPLAYS = Path(__file__).resolve().parents[1] / "replays"
STREAMED = sorted(REPLAYS.glob("*.sse"))
_BODIES = sorted(p for p in REPLAYS.glob("*.json") if not p.name.endswith(".request.json"))


def _status(path: Path) -> int:
    return int(json.loads(path.with_name(path.stem + ".request.json").read_text())["status"])


BODIES = [p for p in _BODIES if _status(p) < 400]
"""Whole JSON answers (a server that ignored `stream: true`)."""
ERRORS = [p for p in _BODIES if _status(p) >= 400]
"""HTTP error answers."""


def replay_model(path: Path) -> str:
    """The model the recorded request asked for."""
    meta = json.loads(path.with_name(path.stem + ".request.json").read_text())
    return str(meta["request_body"]["model"])


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


def _message(message: dict[str, Any]) -> dict[str, Any]:
    usage = message["usage"]
    return {
        "content": message["content"],
        "usage": {k: usage[k] for k in ("input", "output", "cacheRead", "cacheWrite")},
        "stopReason": message["stopReason"],
        "errorMessage": message.get("errorMessage"),
        "responseId": message.get("responseId"),
    }


def summary(lines: list[dict[str, Any]]) -> dict[str, Any]:
    """The first assistant answer of a `--mode json` run (pi's camelCase): each stream event
    (kind, index, delta / content / tool call) and the final message."""
    events: list[list[Any]] = []
    for line in lines:
        if line.get("type") == "message_update":
            events.append(_event(line["assistantMessageEvent"]))
        elif line.get("type") == "message_end" and line["message"]["role"] == "assistant":
            return {"events": events, "message": _message(line["message"])}
    raise AssertionError("no assistant message in the run")
