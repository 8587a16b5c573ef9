"""The thinking levels a model offers, from its `thinkingLevelMap`, and clamping to them (as pi)."""

from __future__ import annotations

from pi_core.ai.model import Model
from pi_core.thinking import THINKING_LEVELS


def supported_thinking_levels(model: Model) -> list[str]:
    """Return the levels `model` accepts: "off" only without reasoning; a level mapped to null
    is left out, and `xhigh` is offered only where the map names it."""
    if not model.reasoning:
        return ["off"]
    levels = model.thinking_level_map or {}
    supported: list[str] = []
    for level in THINKING_LEVELS:
        if level in levels and levels[level] is None:
            continue
        if level == "xhigh" and level not in levels:
            continue
        supported.append(level)
    return supported


def clamp_thinking_level(model: Model, level: str) -> str:
    """Return `level` if `model` accepts it, else the nearest accepted level above it, else the
    nearest below (an unknown level: the first accepted one)."""
    available = supported_thinking_levels(model)
    if level in available:
        return level
    if level not in THINKING_LEVELS:
        return available[0] if available else "off"
    wanted = THINKING_LEVELS.index(level)
    higher: list[str] = [x for x in THINKING_LEVELS[wanted:] if x in available]
    lower: list[str] = [x for x in reversed(THINKING_LEVELS[:wanted]) if x in available]
    return (higher or lower or [available[0] if available else "off"])[0]
