"""Run the plugin's stream function against the loopback fake and collect what it yields."""

from __future__ import annotations

from typing import Any

from pi_plugin_mistral.stream import stream_mistral

from pi_core.ai.catalog_data import catalog_models
from pi_core.providers import (
    AssistantMessageEvent,
    LLMContext,
    Model,
    StreamOptions,
)


def catalog_model(model_id: str, base_url: str) -> Model:
    """The catalog's `mistral` model `model_id`, served at `base_url`."""
    (entry,) = [m for m in catalog_models("mistral") if m["id"] == model_id]
    return Model.model_validate({**entry, "baseUrl": base_url})


async def collect(
    model: Model, context: LLMContext, options: StreamOptions | None = None
) -> list[AssistantMessageEvent]:
    """Every event of one response."""
    options = options or StreamOptions(api_key="test-key")
    return [event async for event in stream_mistral(model, context, options)]


def as_pi(events: list[AssistantMessageEvent]) -> list[dict[str, Any]]:
    """The events as `--mode json` prints them: `message_update`s, then `message_end`."""
    lines: list[dict[str, Any]] = []
    for event in events:
        data = event.model_dump(mode="json", by_alias=True, exclude_none=True)
        if data["type"] in ("done", "error"):
            message = data.get("message") or data["error"]
            lines.append({"type": "message_end", "message": message})
        elif data["type"] != "start":
            lines.append({"type": "message_update", "assistantMessageEvent": data})
    return lines
