"""Google provider for pi: Gemini over the Gemini API and Vertex AI, with thinking, tools and
images."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pi_core import hookimpl
from pi_core.providers import ProviderConfig, stream_on_first_use

# the stream code is imported on the first request (a run on another API never loads it)
stream_gemini = stream_on_first_use("pi_plugin_google.stream:stream_gemini")
stream_vertex = stream_on_first_use("pi_plugin_google.stream:stream_vertex")

STREAMS: dict[str, Any] = {"google-generative-ai": stream_gemini, "google-vertex": stream_vertex}
"""API kind → stream function, for custom providers in models.json."""


@hookimpl
def register_providers(register: Callable[..., None]) -> None:
    """Register `google` and `google-vertex` with their streams (models: the core's catalog)."""
    register(
        "google",
        ProviderConfig(
            api="google-generative-ai",
            base_url="https://generativelanguage.googleapis.com/v1beta",
            api_key_env=["GEMINI_API_KEY"],
            stream=stream_gemini,
        ),
    )
    register(
        "google-vertex",
        ProviderConfig(
            api="google-vertex",
            api_key_env=["GOOGLE_CLOUD_API_KEY"],
            stream=stream_vertex,
        ),
    )
