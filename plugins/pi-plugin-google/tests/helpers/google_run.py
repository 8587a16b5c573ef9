"""Run the plugin's streams against the loopback fake and collect what they yield."""

from __future__ import annotations

from typing import Any

from pi_plugin_google.stream import stream_gemini, stream_vertex

from pi_core.ai.model import Model
from pi_core.ai.protocol import LLMContext, StreamOptions
from pi_core.messages import AssistantMessage, UserMessage
from pi_core.messages.stream import AssistantMessageEvent


def gemini_model(base_url: str, model_id: str = "gemini-2.5-flash", **fields: Any) -> Model:
    """A catalog-like Gemini API model served by the fake."""
    values: dict[str, Any] = {
        "id": model_id,
        "api": "google-generative-ai",
        "provider": "google",
        "base_url": base_url,
        "reasoning": True,
        "input": ["text", "image"],
        "context_window": 1_048_576,
        "max_tokens": 65_536,
    }
    return Model(**{**values, **fields})


def vertex_model(base_url: str, model_id: str = "gemini-2.5-flash", **fields: Any) -> Model:
    """A catalog-like Vertex model (its base URL as models.json would set it)."""
    return gemini_model(base_url, model_id, api="google-vertex", provider="google-vertex", **fields)


def context(prompt: str = "Hello") -> LLMContext:
    """One user message."""
    return LLMContext(system_prompt="Be brief.", messages=[UserMessage(content=prompt)])


async def collect(
    model: Model, ctx: LLMContext | None = None, **options: Any
) -> tuple[list[AssistantMessageEvent], AssistantMessage]:
    """Stream one response; return its events and the final message."""
    stream = stream_vertex if model.api == "google-vertex" else stream_gemini
    opts = StreamOptions(**{"api_key": "test-key", "max_retries": 0, **options})
    events = [event async for event in stream(model, ctx or context(), opts)]
    last = events[-1]
    message = getattr(last, "message", None) or getattr(last, "error", None)
    assert isinstance(message, AssistantMessage)
    return events, message
