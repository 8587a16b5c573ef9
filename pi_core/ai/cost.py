"""Turning token counts into dollars with a model's prices (per million tokens)."""

from __future__ import annotations

from pi_core.ai.model import Model
from pi_core.messages.llm import Cost, Usage


def calculate_cost(model: Model, usage: Usage) -> Cost:
    """Fill and return `usage.cost` from the model's prices."""
    prices = model.cost
    cost = Cost(
        input=prices.input / 1_000_000 * usage.input,
        output=prices.output / 1_000_000 * usage.output,
        cache_read=prices.cache_read / 1_000_000 * usage.cache_read,
        cache_write=prices.cache_write / 1_000_000 * usage.cache_write,
    )
    cost.total = cost.input + cost.output + cost.cache_read + cost.cache_write
    usage.cost = cost
    return cost
