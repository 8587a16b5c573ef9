"""The Responses API stream functions (OpenAI, Azure, Codex), whose code is imported on
the first request of that kind: a run on Chat Completions alone does not load it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pi_core.providers import AssistantMessageEvent, LLMContext, Model, StreamOptions


def stream_responses(
    model: Model, context: LLMContext, options: StreamOptions
) -> AsyncIterator[AssistantMessageEvent]:
    """Stream one Responses API response."""
    from pi_plugin_openai.responses import stream_responses as stream

    return stream(model, context, options)


def stream_azure_responses(
    model: Model, context: LLMContext, options: StreamOptions
) -> AsyncIterator[AssistantMessageEvent]:
    """Stream one Azure OpenAI Responses API response."""
    from pi_plugin_openai.azure import stream_azure_responses as stream

    return stream(model, context, options)


def stream_codex_responses(
    model: Model, context: LLMContext, options: StreamOptions
) -> AsyncIterator[AssistantMessageEvent]:
    """Stream one response from the Codex backend."""
    from pi_plugin_openai.codex import stream_codex_responses as stream

    return stream(model, context, options)
