"""`pi --list-models [search] [--all]`: the models pi can use, as pi 0.73.1 prints them."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from pi_core.fuzzy import fuzzy_filter
from pi_core.text_order import locale_key

if TYPE_CHECKING:
    from pi_core.ai.model import Model
    from pi_core.ai.model_registry import ModelRegistry

COLUMNS = ("provider", "model", "context", "max-out", "thinking", "images")
ALL_COLUMNS = (*COLUMNS, "key", "api")


def print_models(registry: ModelRegistry, search: str, everything: bool = False) -> int:
    """Print the models with a key (`everything`: all known, with key and API columns); 0."""
    models = registry.all_models() if everything else registry.available_models()
    if not models:
        click.echo(no_models_message())
        return 0
    if search:
        models = fuzzy_filter(models, search, lambda m: f"{m.provider} {m.id}")
    if not models:
        click.echo(f'No models matching "{search}"')
        return 0
    models.sort(key=lambda m: (locale_key(m.provider), locale_key(m.id)))
    rows: list[tuple[str, ...]] = [ALL_COLUMNS if everything else COLUMNS]
    rows += [_row(registry, model, everything) for model in models]
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        click.echo("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)))
    return 0


def _row(registry: ModelRegistry, model: Model, everything: bool) -> tuple[str, ...]:
    cells = (model.provider, model.id, token_count(model.context_window),
             token_count(model.max_tokens), "yes" if model.reasoning else "no",
             "yes" if "image" in model.input else "no")  # fmt: skip
    if not everything:
        return cells
    from pi_core.ai.api_plugins import api_cell

    key = "yes" if registry.has_credentials(model.provider) else "no"
    return (*cells, key, api_cell(model.api, registry.has_stream(model)))


def token_count(count: int) -> str:
    """pi's short form of a token count: 200000 → 200K, 131072 → 131.1K, 1000000 → 1M."""
    for size, unit in ((1_000_000, "M"), (1_000, "K")):
        if count >= size:
            value = count / size
            return f"{int(value)}{unit}" if value.is_integer() else f"{_fixed1(value)}{unit}"
    return str(count)


def _fixed1(value: float) -> str:
    """JavaScript's `toFixed(1)`, which rounds the decimal value half up (not to even)."""
    from decimal import ROUND_HALF_UP, Decimal

    return str(Decimal(value).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP))


def no_models_message() -> str:
    """pi's words when no model has a key, pointing at this project's docs."""
    from pi_core.ai.guidance import docs_path

    return (
        "No models available. Use /login to log into a provider via OAuth or API key. See:\n"
        f"  {docs_path('providers.md')}\n  {docs_path('cli.md')}"
    )
