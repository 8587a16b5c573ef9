"""The model pi selects for a provider right after logging in to it."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pi_core.ai.model import Model
    from pi_core.ai.model_registry import ModelRegistry

# pi 0.73.1's default model of each built-in provider (model-resolver's table).
DEFAULT_MODEL_IDS: dict[str, str] = {
    "amazon-bedrock": "us.anthropic.claude-opus-4-6-v1",
    "anthropic": "claude-opus-4-7",
    "openai": "gpt-5.4",
    "azure-openai-responses": "gpt-5.4",
    "openai-codex": "gpt-5.5",
    "deepseek": "deepseek-v4-pro",
    "google": "gemini-3.1-pro-preview",
    "google-vertex": "gemini-3.1-pro-preview",
    "github-copilot": "gpt-5.4",
    "openrouter": "moonshotai/kimi-k2.6",
    "vercel-ai-gateway": "zai/glm-5.1",
    "xai": "grok-4.20-0309-reasoning",
    "groq": "openai/gpt-oss-120b",
    "cerebras": "zai-glm-4.7",
    "zai": "glm-5.1",
    "mistral": "devstral-medium-latest",
    "minimax": "MiniMax-M2.7",
    "minimax-cn": "MiniMax-M2.7",
    "moonshotai": "kimi-k2.6",
    "moonshotai-cn": "kimi-k2.6",
    "huggingface": "moonshotai/Kimi-K2.6",
    "fireworks": "accounts/fireworks/models/kimi-k2p6",
    "opencode": "kimi-k2.6",
    "opencode-go": "kimi-k2.6",
    "kimi-coding": "kimi-for-coding",
    "cloudflare-workers-ai": "@cf/moonshotai/kimi-k2.6",
    "cloudflare-ai-gateway": "workers-ai/@cf/moonshotai/kimi-k2.6",
    "xiaomi": "mimo-v2.5-pro",
    "xiaomi-token-plan-cn": "mimo-v2.5-pro",
    "xiaomi-token-plan-ams": "mimo-v2.5-pro",
    "xiaomi-token-plan-sgp": "mimo-v2.5-pro",
}


def default_model(registry: ModelRegistry, provider: str) -> Model | None:
    """The provider's default model when it has one, else its first model (None: no models).

    pi stops at the table; a provider of models.json has no entry there, so its first model is
    taken instead of leaving the user without a model.
    """
    models = registry.provider_models(provider)
    wanted = DEFAULT_MODEL_IDS.get(provider)
    preferred = next((m for m in models if m.id == wanted), None)
    return preferred or (models[0] if models else None)


def initial_model(registry: ModelRegistry) -> Model | None:
    """The model to start with when none is saved: as pi, the first provider of the default
    table with a key and its default model, else the first model with a key. Models whose API no
    installed plugin streams are passed over while one that streams has a key."""
    available = registry.available_models()
    usable = [m for m in available if registry.has_stream(m)] or available
    for provider, model_id in DEFAULT_MODEL_IDS.items():
        match = next((m for m in usable if m.provider == provider and m.id == model_id), None)
        if match is not None:
            return match
    return usable[0] if usable else None
