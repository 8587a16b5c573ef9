"""OpenAI models as pi 0.73.1 lists them (all on the Responses API; prices per million tokens)."""

from __future__ import annotations

from typing import Any

from pi_core.providers import ModelCost, ProviderModelConfig

_NO_OFF: dict[str, Any] = {"off": None}
"""GPT-5 models cannot turn reasoning off."""
_XHIGH: dict[str, Any] = {"off": None, "xhigh": "xhigh"}
"""GPT-5.2 and later also reason at `xhigh`."""


def _model(
    model_id: str, name: str, window: int, max_tokens: int, price: tuple[float, float, float],
    reasoning: bool = False, levels: dict[str, Any] | None = None, images: bool = True,
) -> ProviderModelConfig:  # fmt: skip
    return ProviderModelConfig(
        id=model_id,
        name=name,
        reasoning=reasoning,
        thinking_level_map=levels,
        input=["text", "image"] if images else ["text"],
        cost=ModelCost(input=price[0], output=price[1], cache_read=price[2]),
        context_window=window,
        max_tokens=max_tokens,
    )


MODELS = [
    _model("gpt-4o", "GPT-4o", 128_000, 16_384, (2.5, 10, 1.25)),
    _model("gpt-4o-mini", "GPT-4o mini", 128_000, 16_384, (0.15, 0.6, 0.08)),
    _model("gpt-4.1", "GPT-4.1", 1_047_576, 32_768, (2, 8, 0.5)),
    _model("gpt-4.1-mini", "GPT-4.1 mini", 1_047_576, 32_768, (0.4, 1.6, 0.1)),
    _model("gpt-4.1-nano", "GPT-4.1 nano", 1_047_576, 32_768, (0.1, 0.4, 0.03)),
    _model("o1", "o1", 200_000, 100_000, (15, 60, 7.5), reasoning=True),
    _model("o3", "o3", 200_000, 100_000, (2, 8, 0.5), reasoning=True),
    _model("o3-mini", "o3-mini", 200_000, 100_000, (1.1, 4.4, 0.55), reasoning=True, images=False),
    _model("o3-pro", "o3-pro", 200_000, 100_000, (20, 80, 0), reasoning=True),
    _model("o4-mini", "o4-mini", 200_000, 100_000, (1.1, 4.4, 0.28), reasoning=True),
    _model("gpt-5", "GPT-5", 400_000, 128_000, (1.25, 10, 0.125), True, _NO_OFF),
    _model("gpt-5-mini", "GPT-5 Mini", 400_000, 128_000, (0.25, 2, 0.025), True, _NO_OFF),
    _model("gpt-5-nano", "GPT-5 Nano", 400_000, 128_000, (0.05, 0.4, 0.005), True, _NO_OFF),
    _model("gpt-5-codex", "GPT-5-Codex", 400_000, 128_000, (1.25, 10, 0.125), True, _NO_OFF),
    _model("gpt-5-pro", "GPT-5 Pro", 400_000, 272_000, (15, 120, 0), True, _NO_OFF),
    _model("gpt-5.1", "GPT-5.1", 400_000, 128_000, (1.25, 10, 0.13), True, _NO_OFF),
    _model("gpt-5.1-codex", "GPT-5.1 Codex", 400_000, 128_000, (1.25, 10, 0.125), True, _NO_OFF),
    _model(
        "gpt-5.1-codex-max", "GPT-5.1 Codex Max", 400_000, 128_000, (1.25, 10, 0.125), True, _NO_OFF
    ),
    _model(
        "gpt-5.1-codex-mini",
        "GPT-5.1 Codex mini",
        400_000,
        128_000,
        (0.25, 2, 0.025),
        True,
        _NO_OFF,
    ),
    _model("gpt-5.2", "GPT-5.2", 400_000, 128_000, (1.75, 14, 0.175), True, _XHIGH),
    _model("gpt-5.2-codex", "GPT-5.2 Codex", 400_000, 128_000, (1.75, 14, 0.175), True, _XHIGH),
    _model("gpt-5.2-pro", "GPT-5.2 Pro", 400_000, 128_000, (21, 168, 0), True, _XHIGH),
    _model("gpt-5.3-codex", "GPT-5.3 Codex", 400_000, 128_000, (1.75, 14, 0.175), True, _XHIGH),
    _model("gpt-5.4", "GPT-5.4", 272_000, 128_000, (2.5, 15, 0.25), True, _XHIGH),
    _model("gpt-5.4-mini", "GPT-5.4 mini", 400_000, 128_000, (0.75, 4.5, 0.075), True, _XHIGH),
    _model("gpt-5.4-nano", "GPT-5.4 nano", 400_000, 128_000, (0.2, 1.25, 0.02), True, _XHIGH),
    _model("gpt-5.4-pro", "GPT-5.4 Pro", 1_050_000, 128_000, (30, 180, 0), True, _XHIGH),
    _model("gpt-5.5", "GPT-5.5", 272_000, 128_000, (5, 30, 0.5), True, _XHIGH),
    _model("gpt-5.5-pro", "GPT-5.5 Pro", 1_050_000, 128_000, (30, 180, 0), True, _XHIGH),
]
"""The built-in catalog (provider api `openai-responses`); models.json can add to or override it."""
