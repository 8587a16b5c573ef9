"""Models, providers and the provider protocol."""

from pi_core.ai.model import (
    InputKind,
    Model,
    ModelCost,
    ProviderConfig,
    ProviderModelConfig,
    ThinkingLevel,
)

__all__ = [
    "InputKind",
    "Model",
    "ModelCost",
    "ProviderConfig",
    "ProviderModelConfig",
    "ThinkingLevel",
]
