"""The model /login selects: pi's default for the provider, else the provider's first model."""

from __future__ import annotations

from pathlib import Path

from pi_core.ai.auth import AuthStorage
from pi_core.ai.model import ProviderConfig, ProviderModelConfig
from pi_core.ai.model_registry import ModelRegistry
from pi_core.ai.provider_defaults import default_model


def test_pi_default_first_then_the_first_model_then_none(tmp_path: Path) -> None:
    registry = ModelRegistry(AuthStorage(tmp_path / "auth.json"))
    ids = ["gpt-4o", "gpt-5.4", "gpt-5"]
    registry.register_provider(
        "openai", ProviderConfig(api="x", models=[ProviderModelConfig(id=i) for i in ids])
    )
    registry.register_provider(
        "homebrew", ProviderConfig(api="x", models=[ProviderModelConfig(id="m1")])
    )
    picked = default_model(registry, "openai")
    assert picked is not None and picked.key == "openai/gpt-5.4"
    fallback = default_model(registry, "homebrew")
    assert fallback is not None and fallback.key == "homebrew/m1"
    assert default_model(registry, "nobody") is None
