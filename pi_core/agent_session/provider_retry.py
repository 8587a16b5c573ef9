"""`retry.provider` settings on every request: what each provider's transport retries honour."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from dataclasses import replace

from pi_core.ai.model import Model
from pi_core.ai.protocol import LLMContext, StreamFunction, StreamOptions
from pi_core.messages.stream import AssistantMessageEvent
from pi_core.resources.settings.models import ProviderRetrySettings


def with_provider_retry(
    stream_for: Callable[[Model], StreamFunction],
    read_settings: Callable[[], ProviderRetrySettings],
) -> Callable[[Model], StreamFunction]:
    """Wrap `stream_for` so each request carries `retry.provider.maxRetries` / `timeoutMs` as the
    settings read when it is sent (a request's own values win)."""

    def wrapped_for(model: Model) -> StreamFunction:
        stream = stream_for(model)

        def with_settings(
            model: Model, context: LLMContext, options: StreamOptions
        ) -> AsyncIterator[AssistantMessageEvent]:
            settings = read_settings()
            options = replace(
                options,
                max_retries=_first(options.max_retries, settings.max_retries),
                timeout_ms=_first(options.timeout_ms, settings.timeout_ms),
            )
            return stream(model, context, options)

        return with_settings

    return wrapped_for


def _first(own: int | None, setting: int | None) -> int | None:
    return own if own is not None else setting
