"""The provider protocol: a context goes in, an async stream of assistant-message events comes out.

A provider never raises for an API failure: it ends its stream with a `StreamError` whose
message has `stop_reason="error"` (or `"aborted"`) and an `error_message`, so the agent keeps the
partial response and the session layer decides whether to retry or compact.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from pi_core.abort import AbortSignal
from pi_core.ai.model import Model
from pi_core.messages.llm import LLMMessage as LLMMessage
from pi_core.messages.stream import AssistantMessageEvent


@dataclass(frozen=True)
class ToolSpec:
    """A tool as the LLM sees it: name, description and the JSON schema of its arguments."""

    name: str
    description: str
    parameters: dict[str, Any]


@dataclass
class LLMContext:
    """Everything one request carries."""

    system_prompt: str = ""
    messages: list[LLMMessage] = field(default_factory=list)
    tools: list[ToolSpec] = field(default_factory=list)


@dataclass
class StreamOptions:
    """Per-request settings; providers ignore what they do not support."""

    api_key: str | None = None
    signal: AbortSignal | None = None
    reasoning: str | None = None  # thinking level: minimal, low, medium, high, xhigh; None = off
    thinking_budgets: dict[str, int] | None = None
    max_tokens: int | None = None
    temperature: float | None = None
    headers: dict[str, str] | None = None
    header_overrides: dict[str, str | None] | None = None
    """Applied last to the request's headers, whatever the case; None removes a header."""
    session_id: str | None = None
    on_payload: Callable[[Any], Awaitable[Any]] | None = None
    on_response: Callable[[int, dict[str, str]], Awaitable[None]] | None = None
    max_retries: int | None = None  # transport retries before an error (None: 2, as pi's SDKs)
    timeout_ms: int | None = None  # how long each attempt may wait for its answer (None: no limit)


class StreamFunction(Protocol):
    """What a provider implements for one API kind."""

    def __call__(
        self, model: Model, context: LLMContext, options: StreamOptions
    ) -> AsyncIterator[AssistantMessageEvent]:
        """Stream the response: `start`, block events, then exactly one `done` or `error`."""
        ...
