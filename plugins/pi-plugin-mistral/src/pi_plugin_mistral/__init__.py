"""Mistral provider for pi: the `mistral-conversations` API (chat completions over httpx)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pi_core import hookimpl
from pi_core.providers import ProviderConfig
from pi_plugin_mistral.endpoint import BASE_URL
from pi_plugin_mistral.lazy_streams import stream_mistral

STREAMS: dict[str, Any] = {"mistral-conversations": stream_mistral}
"""API kind → stream function, for custom providers in models.json."""


@hookimpl
def register_providers(register: Callable[..., None]) -> None:
    """Register `mistral`'s endpoint and stream (models: the core's catalog)."""
    register(
        "mistral",
        ProviderConfig(
            api="mistral-conversations",
            base_url=BASE_URL,
            api_key_env=["MISTRAL_API_KEY"],
            stream=stream_mistral,
        ),
    )
