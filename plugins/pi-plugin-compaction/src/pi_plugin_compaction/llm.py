"""One summarizing request through pi_core's provider API: the session's model, its key and
headers, our system prompt and one user message; the text of the answer comes back."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pi_core.abort import AbortSignal
from pi_core.messages import AssistantMessage, TextContent, UserMessage
from pi_core.providers import LLMContext, Model, StreamDone, StreamError, StreamOptions
from pi_plugin_compaction.prompts import SYSTEM_PROMPT


class SummaryFailed(Exception):
    """The model answered with an error; the message says what failed and why."""


class SummaryAborted(Exception):
    """The user aborted while the summary was being written."""


@dataclass
class Summarizer:
    """The model to summarize with, where its requests go, and how to stop them."""

    model: Model
    registry: Any
    """The session's ModelRegistry: resolves the stream function, API key and headers."""
    signal: AbortSignal
    thinking_level: str | None = None
    """The session's level; used only when the model reasons and the level is not "off"."""

    async def complete(self, prompt: str, max_tokens: int, *, reasoning: bool = True) -> str:
        """Send `prompt` as one user message; return the answer's text blocks joined by lines."""
        if self.signal.aborted:
            raise SummaryAborted("Summarization aborted")
        model = self.model
        await self.registry.auth.refresh_if_due(model.provider)  # off the event loop
        level = self.thinking_level if reasoning and model.reasoning else None
        options = StreamOptions(
            api_key=self.registry.require_api_key(model),
            headers=self.registry.request_headers(model) or None,
            signal=self.signal,
            max_tokens=max_tokens,
            reasoning=level if level and level != "off" else None,
        )
        context = LLMContext(
            system_prompt=SYSTEM_PROMPT,
            messages=[UserMessage(content=[TextContent(text=prompt)])],
        )
        final: AssistantMessage | None = None
        async for event in self.registry.stream_for(model)(model, context, options):
            if isinstance(event, StreamDone):
                final = event.message
            elif isinstance(event, StreamError):
                final = event.error
        if self.signal.aborted or (final is not None and final.stop_reason == "aborted"):
            raise SummaryAborted("Summarization aborted")
        if final is None:
            raise SummaryFailed("the response ended without a message")
        if final.stop_reason == "error":
            raise SummaryFailed(final.error_message or "Unknown error")
        return "\n".join(block.text for block in final.content if isinstance(block, TextContent))
