"""`enabledModels` / `--models` patterns → the models Ctrl+P cycles through (pi's rules)."""

from __future__ import annotations

import re
from typing import Any

from pi_core.thinking import THINKING_LEVELS

_GLOB_CHARS = "*?["


def resolve_scope(registry: Any, patterns: list[str]) -> list[tuple[Any, str | None]]:
    """Models matching the patterns, in the patterns' order; a pattern matching nothing is
    skipped (see `resolve_scope_with_warnings` for what is said about it)."""
    return resolve_scope_with_warnings(registry, patterns)[0]


def resolve_scope_with_warnings(
    registry: Any, patterns: list[str]
) -> tuple[list[tuple[Any, str | None]], list[str]]:
    """Resolve `provider/id`, an id, a fuzzy part of one, or a glob (`provider/*`, `*sonnet*`),
    each with an optional `:level`; return the scope and one warning per unusable pattern."""
    models = registry.available_models()
    chosen: list[tuple[Any, str | None]] = []
    warnings: list[str] = []
    seen: set[str] = set()
    for raw in patterns:
        if any(char in raw for char in _GLOB_CHARS):
            matched, level = _glob_matches(raw, models)
        else:
            model, level, warning = _fuzzy_match(registry, raw, models)
            if warning:
                warnings.append(warning)
            matched = [model] if model is not None else []
        if not matched:
            warnings.append(f'No models match pattern "{raw}"')
        for model in matched:
            if model.key not in seen:
                seen.add(model.key)
                chosen.append((model, level))
    return chosen, warnings


def _glob_matches(raw: str, models: list[Any]) -> tuple[list[Any], str | None]:
    head, colon, suffix = raw.rpartition(":")
    pattern, level = (head, suffix) if colon and suffix in THINKING_LEVELS else (raw, None)
    regex = _glob_regex(pattern)
    matched = [m for m in models if regex.fullmatch(m.key) or regex.fullmatch(m.id)]
    return matched, level


def _glob_regex(pattern: str) -> re.Pattern[str]:
    """A case-insensitive glob where `*` and `?` stop at `/` (as a path glob does)."""
    parts: list[str] = []
    index = 0
    while index < len(pattern):
        char = pattern[index]
        if char == "*":
            parts.append("[^/]*")
        elif char == "?":
            parts.append("[^/]")
        elif char == "[" and "]" in pattern[index + 2 :]:
            end = pattern.index("]", index + 2)
            body = pattern[index + 1 : end]
            negate = body.startswith(("!", "^"))
            body = re.escape(body[1:] if negate else body).replace("\\-", "-")
            parts.append(f"[{'^' if negate else ''}{body}]")
            index = end
        else:
            parts.append(re.escape(char))
        index += 1
    return re.compile("".join(parts), re.IGNORECASE)


def _fuzzy_match(
    registry: Any, raw: str, models: list[Any]
) -> tuple[Any | None, str | None, str | None]:
    """(model, level, warning): the whole pattern first, then without a `:suffix`; a suffix that
    is not a thinking level is dropped with a warning."""
    from pi_core.ai.model_registry import UnknownModelError

    try:
        choice = registry.resolve(raw, models)
        return choice.model, choice.thinking_level, None
    except UnknownModelError:
        pass
    head, colon, suffix = raw.rpartition(":")
    if not colon or not head or suffix in THINKING_LEVELS:
        return None, None, None
    model, _level, warning = _fuzzy_match(registry, head, models)
    if model is None:
        return None, None, warning
    return (
        model,
        None,
        (
            warning
            or f'Invalid thinking level "{suffix}" in pattern "{raw}". Using default instead.'
        ),
    )
