"""The plugin's stream function, whose code (request building, event parsing) is
imported on the first request: a run that never talks to Anthropic does not load it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pi_core.providers import AssistantMessageEvent, LLMContext, Model, StreamOptions


def stream_messages(
    model: Model, context: LLMContext, options: StreamOptions
) -> AsyncIterator[AssistantMessageEvent]:
    """Stream one Messages API response."""
    from pi_plugin_anthropic.stream import stream_messages as stream

    return stream(model, context, options)
