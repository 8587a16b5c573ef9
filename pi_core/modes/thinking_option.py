"""`--thinking <level>`: an unknown level is warned about and ignored, as pi does."""

from __future__ import annotations

from typing import Any

import click

from pi_core.thinking import THINKING_LEVELS


class LenientThinkingLevel(click.Choice):  # type: ignore[type-arg]
    """Offer pi's levels in `--help`; for anything else, warn on stderr and use the default."""

    def __init__(self) -> None:
        super().__init__(THINKING_LEVELS)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        """Return the level, or None (the default) after a warning when it is not one."""
        if value in THINKING_LEVELS:
            return value
        valid = ", ".join(THINKING_LEVELS)
        click.echo(f'Warning: Invalid thinking level "{value}". Valid values: {valid}', err=True)
        return None
