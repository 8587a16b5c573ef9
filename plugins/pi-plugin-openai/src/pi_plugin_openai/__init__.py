"""OpenAI provider for pi: the Responses API for OpenAI (and Azure OpenAI, and ChatGPT's Codex
backend), Chat Completions for compatible servers."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pi_core import hookimpl
from pi_core.providers import ProviderConfig, stream_on_first_use
from pi_plugin_openai.codex_login import CodexLogin
from pi_plugin_openai.completions import stream_completions

# the stream code is imported on the first request (a run on another API never loads it)
stream_responses = stream_on_first_use("pi_plugin_openai.responses:stream_responses")
stream_azure_responses = stream_on_first_use("pi_plugin_openai.azure:stream_azure_responses")
stream_codex_responses = stream_on_first_use("pi_plugin_openai.codex:stream_codex_responses")

STREAMS: dict[str, Any] = {
    "openai-responses": stream_responses,
    "openai-completions": stream_completions,
    "azure-openai-responses": stream_azure_responses,
    "openai-codex-responses": stream_codex_responses,
}
"""API kind → stream function; all are registered (the catalog's Azure and Codex models use the
last two; models.json providers may use any)."""


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
    """Offer the ChatGPT (Codex) subscription login in `/login` (for the openai-codex models)."""
    register(CodexLogin())
