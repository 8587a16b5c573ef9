"""OpenAI models pi knows (context windows, output limits and prices per million tokens)."""

from __future__ import annotations

from pi_core.ai.model import ModelCost, ProviderModelConfig


def _model(
    model_id: str, name: str, window: int, max_tokens: int, price: tuple[float, float, float],
    reasoning: bool = False,
) -> ProviderModelConfig:  # fmt: skip
    return ProviderModelConfig(
        id=model_id,
        name=name,
        reasoning=reasoning,
        input=["text", "image"],
        cost=ModelCost(input=price[0], output=price[1], cache_read=price[2]),
        context_window=window,
        max_tokens=max_tokens,
    )


MODELS = [
    _model("gpt-4o", "GPT-4o", 128_000, 16_384, (2.5, 10, 1.25)),
    _model("gpt-4o-mini", "GPT-4o mini", 128_000, 16_384, (0.15, 0.6, 0.075)),
    _model("gpt-4.1", "GPT-4.1", 1_047_576, 32_768, (2, 8, 0.5)),
    _model("gpt-4.1-mini", "GPT-4.1 mini", 1_047_576, 32_768, (0.4, 1.6, 0.1)),
    _model("o4-mini", "o4-mini", 200_000, 100_000, (1.1, 4.4, 0.275), reasoning=True),
    _model("gpt-5", "GPT-5", 400_000, 128_000, (1.25, 10, 0.125), reasoning=True),
    _model("gpt-5-mini", "GPT-5 mini", 400_000, 128_000, (0.25, 2, 0.025), reasoning=True),
]
"""The built-in catalog; models.json can add to or override it."""
