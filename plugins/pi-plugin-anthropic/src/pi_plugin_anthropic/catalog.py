"""Claude models pi knows (context windows, output limits and prices per million tokens)."""

from __future__ import annotations

from pi_core.providers import ModelCost, ProviderModelConfig


def _model(
    model_id: str, name: str, max_tokens: int, price: tuple[float, float, float, float],
    window: int = 200_000, reasoning: bool = True,
) -> ProviderModelConfig:  # fmt: skip
    return ProviderModelConfig(
        id=model_id,
        name=name,
        reasoning=reasoning,
        input=["text", "image"],
        cost=ModelCost(input=price[0], output=price[1], cache_read=price[2], cache_write=price[3]),
        context_window=window,
        max_tokens=max_tokens,
    )


MODELS = [
    _model("claude-opus-4-7", "Claude Opus 4.7", 128_000, (5, 25, 0.5, 6.25), window=1_000_000),
    _model("claude-opus-4-6", "Claude Opus 4.6", 128_000, (5, 25, 0.5, 6.25), window=1_000_000),
    _model("claude-sonnet-4-6", "Claude Sonnet 4.6", 64_000, (3, 15, 0.3, 3.75), window=1_000_000),
    _model("claude-opus-4-5", "Claude Opus 4.5", 64_000, (5, 25, 0.5, 6.25)),
    _model("claude-haiku-4-5", "Claude Haiku 4.5", 64_000, (1, 5, 0.1, 1.25)),
    _model("claude-sonnet-4-5", "Claude Sonnet 4.5", 64_000, (3, 15, 0.3, 3.75)),
    _model("claude-opus-4-1", "Claude Opus 4.1", 32_000, (15, 75, 1.5, 18.75)),
    _model("claude-sonnet-4-0", "Claude Sonnet 4", 64_000, (3, 15, 0.3, 3.75)),
    _model("claude-opus-4-0", "Claude Opus 4", 32_000, (15, 75, 1.5, 18.75)),
    _model(
        "claude-3-5-haiku-latest", "Claude Haiku 3.5", 8_192, (0.8, 4, 0.08, 1), reasoning=False
    ),
]
"""The built-in catalog; models.json can add to or override it."""
