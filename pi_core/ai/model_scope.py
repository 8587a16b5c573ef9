"""`enabledModels` / `--models` patterns → the models Ctrl+P cycles through."""

from __future__ import annotations

import fnmatch
from typing import Any

from pi_core.thinking import THINKING_LEVELS


def resolve_scope(registry: Any, patterns: list[str]) -> list[tuple[Any, str | None]]:
    """Models matching the patterns (`provider/id`, an id, a glob, with an optional `:level`),
    in the patterns' order; a pattern matching nothing is skipped."""
    models = registry.available_models()
    chosen: list[tuple[Any, str | None]] = []
    seen: set[str] = set()
    for raw in patterns:
        head, _, level = raw.rpartition(":")
        pattern, thinking = (head, level) if head and level in THINKING_LEVELS else (raw, None)
        if any(char in pattern for char in "*?["):
            matched = [m for m in models if fnmatch.fnmatch(m.key, pattern)
                       or fnmatch.fnmatch(m.id, pattern)]  # fmt: skip
        else:
            matched = [m for m in models if pattern in (m.key, m.id)]
        for model in matched:
            if model.key not in seen:
                seen.add(model.key)
                chosen.append((model, thinking))
    return chosen
