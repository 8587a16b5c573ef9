"""Amazon Bedrock provider for pi: the Converse stream API, with thinking, tool use and images."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pi_core import hookimpl
from pi_core.providers import ProviderConfig, stream_on_first_use

# the stream code is imported on the first request (a run on another API never loads it)
stream_converse = stream_on_first_use("pi_plugin_bedrock.stream:stream_converse")

STREAMS: dict[str, Any] = {"bedrock-converse-stream": stream_converse}
"""API kind → stream function, for custom providers in models.json."""


@hookimpl
def register_providers(register: Callable[..., None]) -> None:
    """Register `amazon-bedrock`'s stream (models and credentials: the core's catalog)."""
    register(
        "amazon-bedrock",
        ProviderConfig(
            api="bedrock-converse-stream",
            base_url="https://bedrock-runtime.us-east-1.amazonaws.com",
            stream=stream_converse,
        ),
    )
