"""The plugin's stream function, whose code (request signing, the event stream) is
imported on the first request: a run that never talks to Bedrock does not load it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pi_core.providers import AssistantMessageEvent, LLMContext, Model, StreamOptions


def stream_converse(
    model: Model, context: LLMContext, options: StreamOptions
) -> AsyncIterator[AssistantMessageEvent]:
    """Stream one ConverseStream response."""
    from pi_plugin_bedrock.stream import stream_converse as stream

    return stream(model, context, options)
