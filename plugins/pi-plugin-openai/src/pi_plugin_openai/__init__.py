"""OpenAI provider for pi: Chat Completions for OpenAI and every OpenAI-compatible server."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pi_core.ai.model import ProviderConfig
from pi_core.hookspecs import hookimpl
from pi_plugin_openai.catalog import MODELS
from pi_plugin_openai.completions import stream_completions

STREAMS: dict[str, Any] = {"openai-completions": stream_completions}
"""API kind → stream function, for custom providers in models.json."""


@hookimpl
def register_providers(register: Callable[..., None]) -> None:
    """Register `openai` (Chat Completions) with its model catalog."""
    register(
        "openai",
        ProviderConfig(
            api="openai-completions",
            base_url="https://api.openai.com/v1",
            api_key_env=["OPENAI_API_KEY"],
            models=MODELS,
            stream=stream_completions,
        ),
    )
