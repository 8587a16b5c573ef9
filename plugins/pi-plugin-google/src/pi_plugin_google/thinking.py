"""Thinking levels as Gemini's `thinkingConfig`, mapped per model family as pi 0.73.1 maps them."""

from __future__ import annotations

import re
from typing import Any

from pi_core.providers import Model

_BUDGETS = {
    "2.5-pro": {"minimal": 128, "low": 2048, "medium": 8192, "high": 32768},
    "2.5-flash-lite": {"minimal": 512, "low": 2048, "medium": 8192, "high": 24576},
    "2.5-flash": {"minimal": 128, "low": 2048, "medium": 8192, "high": 24576},
}
"""Thinking budgets of the Gemini 2.5 models, by a piece of the id (checked in this order)."""

_LEVELS = {"minimal": "MINIMAL", "low": "LOW", "medium": "MEDIUM", "high": "HIGH"}
_PRO_LEVELS = {"minimal": "LOW", "low": "LOW", "medium": "HIGH", "high": "HIGH"}
_GEMMA_LEVELS = {"minimal": "MINIMAL", "low": "MINIMAL", "medium": "HIGH", "high": "HIGH"}


def _is_gemini3_pro(model: Model) -> bool:
    return re.search(r"gemini-3(?:\.\d+)?-pro", model.id.lower()) is not None


def _is_gemini3_flash(model: Model) -> bool:
    return re.search(r"gemini-3(?:\.\d+)?-flash", model.id.lower()) is not None


def _is_gemma4(model: Model, vertex: bool) -> bool:
    # pi's Vertex provider has no Gemma 4 case: those ids take the budget path there
    return not vertex and re.search(r"gemma-?4", model.id.lower()) is not None


def _budget(model: Model, level: str, custom: dict[str, int] | None) -> int:
    if custom and level in custom:
        return custom[level]
    for piece, budgets in _BUDGETS.items():
        if piece in model.id and not (piece == "2.5-flash-lite" and _skip_lite(model)):
            return budgets[level]
    return -1  # let the model decide


def _skip_lite(model: Model) -> bool:
    """pi's Vertex provider has no Flash-Lite row: there Flash-Lite takes Flash's budgets."""
    return model.api == "google-vertex"


def thinking_config(
    model: Model, level: str | None, custom: dict[str, int] | None = None
) -> dict[str, Any] | None:
    """The `thinkingConfig` for `level` (None: thinking off), or None to send none.

    Gemini 3 Pro / Flash (and Gemma 4 on the Gemini API) take a `thinkingLevel`, the others a
    `thinkingBudget`; off is a budget of 0, or the lowest level for models that cannot stop
    thinking, without `includeThoughts` so the hidden thinking stays hidden.
    """
    if not model.reasoning:
        return None
    vertex = model.api == "google-vertex"
    leveled = _is_gemini3_pro(model) or _is_gemini3_flash(model) or _is_gemma4(model, vertex)
    if level is None or level == "off":
        if _is_gemini3_pro(model):
            return {"thinkingLevel": "LOW"}
        if _is_gemini3_flash(model) or _is_gemma4(model, vertex):
            return {"thinkingLevel": "MINIMAL"}
        return {"thinkingBudget": 0}
    effort = "high" if level == "xhigh" else level
    config: dict[str, Any] = {"includeThoughts": True}
    if leveled:
        table = _LEVELS
        if _is_gemini3_pro(model):
            table = _PRO_LEVELS
        elif _is_gemma4(model, vertex):
            table = _GEMMA_LEVELS
        config["thinkingLevel"] = table.get(effort, "HIGH")
    else:
        config["thinkingBudget"] = _budget(model, effort, custom)
    return config
