"""The plugin's stream functions, whose code (request building, event parsing) is
imported on the first request: a run that never talks to Gemini does not load it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pi_core.providers import AssistantMessageEvent, LLMContext, Model, StreamOptions


def stream_gemini(
    model: Model, context: LLMContext, options: StreamOptions
) -> AsyncIterator[AssistantMessageEvent]:
    """Stream one `google-generative-ai` response."""
    from pi_plugin_google.stream import stream_gemini as stream

    return stream(model, context, options)


def stream_vertex(
    model: Model, context: LLMContext, options: StreamOptions
) -> AsyncIterator[AssistantMessageEvent]:
    """Stream one `google-vertex` response."""
    from pi_plugin_google.stream import stream_vertex as stream

    return stream(model, context, options)
