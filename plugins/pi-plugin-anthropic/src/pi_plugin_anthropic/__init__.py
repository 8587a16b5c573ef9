"""Anthropic provider for pi: the Messages API, with thinking, tool use, images and caching."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pi_core import ExtensionContext, hookimpl
from pi_core.events import ModelSelectEvent, SessionStartEvent
from pi_core.providers import ProviderConfig, stream_on_first_use
from pi_plugin_anthropic.extra_usage import ExtraUsageWarning
from pi_plugin_anthropic.login import AnthropicLogin

# the stream code is imported on the first request (a run on another API never loads it)
stream_messages = stream_on_first_use("pi_plugin_anthropic.stream:stream_messages")

STREAMS: dict[str, Any] = {"anthropic-messages": stream_messages}
"""API kind → stream function, for custom providers in models.json."""

_EXTRA_USAGE = ExtraUsageWarning()


@hookimpl
def register_providers(register: Callable[..., None]) -> None:
    """Register `anthropic`'s endpoint and stream (models: the core's catalog)."""
    register(
        "anthropic",
        ProviderConfig(
            api="anthropic-messages",
            base_url="https://api.anthropic.com",
            api_key_env=["ANTHROPIC_OAUTH_TOKEN", "ANTHROPIC_API_KEY"],
            stream=stream_messages,
        ),
    )


@hookimpl
def register_login_providers(register: Callable[..., None]) -> None:
    """Offer the Claude Pro/Max subscription login in `/login`."""
    register(AnthropicLogin())


@hookimpl
def session_start(event: SessionStartEvent, ctx: ExtensionContext) -> None:
    """Warn, once, that a Claude Pro/Max login is billed as extra usage."""
    _EXTRA_USAGE.check(ctx, ctx.model)


@hookimpl
def model_select(event: ModelSelectEvent, ctx: ExtensionContext) -> None:
    """Warn, once, when the selected model goes out with a Claude Pro/Max login."""
    if event.source != "restore":
        _EXTRA_USAGE.check(ctx, event.model)
