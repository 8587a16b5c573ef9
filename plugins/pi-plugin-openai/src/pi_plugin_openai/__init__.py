"""OpenAI provider for pi: the Responses API for OpenAI (and Azure OpenAI, and ChatGPT's Codex
backend), Chat Completions for compatible servers."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pi_core import hookimpl
from pi_core.providers import ProviderConfig
from pi_plugin_openai.codex_login import CodexLogin
from pi_plugin_openai.completions import stream_completions
from pi_plugin_openai.lazy_streams import (
    stream_azure_responses,
    stream_codex_responses,
    stream_responses,
)

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
