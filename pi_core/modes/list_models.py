"""`pi --list-models [search]`: the models pi can use, as a table."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    from pi_core.ai.model_registry import ModelRegistry


def print_models(registry: ModelRegistry, search: str) -> int:
    """Print provider, model, context window, max output and whether it thinks; return 0."""
    models = [m for m in registry.all_models() if search.lower() in m.key.lower()]
    if not models:
        click.echo("No models match." if search else "No models configured.")
        return 0
    rows = [("provider", "model", "context", "max-out", "thinking", "key")]
    for model in models:
        rows.append((model.provider, model.id, _short(model.context_window),
                     _short(model.max_tokens), "yes" if model.reasoning else "no",
                     "yes" if registry.has_credentials(model.provider) else "no"))  # fmt: skip
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        click.echo("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)))
    return 0


def _short(value: int) -> str:
    if value >= 1_000_000:
        return f"{value / 1_000_000:g}M"
    if value >= 1000:
        return f"{value / 1000:g}K"
    return str(value)
