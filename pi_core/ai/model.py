"""LLM model descriptions and provider registrations, in pi's `models.json` shape."""

from collections.abc import Callable
from typing import Any, Literal

from pydantic import Field

from pi_core.messages.base import WireModel
from pi_core.model_defaults import empty_list
from pi_core.thinking import ThinkingLevel as ThinkingLevel

InputKind = Literal["text", "image"]


def _text_only() -> list[InputKind]:
    return ["text"]


class ModelCost(WireModel):
    """Dollars per million tokens."""

    input: float = 0.0
    output: float = 0.0
    cache_read: float = 0.0
    cache_write: float = 0.0


class Model(WireModel):
    """One model a provider serves, with what it accepts and what it costs."""

    id: str
    name: str = ""
    api: str
    provider: str
    base_url: str = ""
    reasoning: bool = False
    thinking_level_map: dict[str, Any] | None = None
    input: list[InputKind] = Field(default_factory=_text_only)
    cost: ModelCost = Field(default_factory=ModelCost)
    context_window: int = 128_000
    max_tokens: int = 16_384
    headers: dict[str, str] | None = Field(default=None, exclude=True)
    """Sent with every request; never serialized (values may be secrets), as pi leaves them out."""
    compat: dict[str, Any] | None = None

    @property
    def key(self) -> str:
        """Return `provider/id`, the name users type."""
        return f"{self.provider}/{self.id}"


class ProviderModelConfig(WireModel):
    """A model a plugin or `models.json` adds to a provider."""

    id: str
    name: str = ""
    api: str | None = None
    reasoning: bool = False
    thinking_level_map: dict[str, Any] | None = None
    input: list[InputKind] = Field(default_factory=_text_only)
    cost: ModelCost = Field(default_factory=ModelCost)
    context_window: int = 128_000
    max_tokens: int = 16_384
    headers: dict[str, str] | None = None
    compat: dict[str, Any] | None = None


class ProviderConfig(WireModel):
    """What `register_providers` hands over: endpoint, key, API kind, models, a stream function."""

    base_url: str | None = None
    api_key: str | None = None
    api: str | None = None
    headers: dict[str, str] | None = None
    auth_header: bool | None = None
    models: list[ProviderModelConfig] = Field(default_factory=empty_list)
    api_key_env: list[str] = Field(default_factory=empty_list)
    """Environment variables that may hold this provider's key, in order of preference."""
    stream: Callable[..., Any] | None = Field(default=None, exclude=True)
    """The stream function (see `pi_core.ai.protocol.StreamFunction`) for this provider's api."""
    streams: dict[str, Callable[..., Any]] = Field(default_factory=dict, exclude=True)
    """Stream functions for further API kinds the plugin serves (per-model `api`, models.json)."""
