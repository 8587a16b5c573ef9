"""Mistral provider for pi: the `mistral-conversations` API (chat completions over httpx)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pi_core import hookimpl
from pi_core.providers import ProviderConfig, stream_on_first_use
from pi_plugin_mistral.endpoint import BASE_URL

# the stream code is imported on the first request (a run on another API never loads it)
stream_mistral = stream_on_first_use("pi_plugin_mistral.stream:stream_mistral")

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
