"""OpenAI provider for pi: the Responses API for OpenAI, Chat Completions for compatible servers."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pi_core import hookimpl
from pi_core.providers import ProviderConfig
from pi_plugin_openai.codex_login import CodexLogin
from pi_plugin_openai.completions import stream_completions
from pi_plugin_openai.responses import stream_responses

STREAMS: dict[str, Any] = {
    "openai-responses": stream_responses,
    "openai-completions": stream_completions,
}
"""API kind → stream function; both are registered, for custom providers in models.json."""


@hookimpl
def register_providers(register: Callable[..., None]) -> None:
    """Register `openai`'s endpoint and both API kinds' streams (models: the core's catalog)."""
    register(
        "openai",
        ProviderConfig(
            api="openai-responses",
            base_url="https://api.openai.com/v1",
            api_key_env=["OPENAI_API_KEY"],
            stream=stream_responses,
            streams=STREAMS,
        ),
    )


@hookimpl
def register_login_providers(register: Callable[..., None]) -> None:
    """Offer the ChatGPT (Codex) subscription login in `/login`; its wire API comes later."""
    register(CodexLogin())
