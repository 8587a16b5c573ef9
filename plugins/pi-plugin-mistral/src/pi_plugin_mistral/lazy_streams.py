"""The plugin's stream function, whose code (request building, event parsing) is
imported on the first request: a run that never talks to Mistral does not load it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pi_core.providers import AssistantMessageEvent, LLMContext, Model, StreamOptions


def stream_mistral(
    model: Model, context: LLMContext, options: StreamOptions
) -> AsyncIterator[AssistantMessageEvent]:
    """Stream one `mistral-conversations` response."""
    from pi_plugin_mistral.stream import stream_mistral as stream

    return stream(model, context, options)
