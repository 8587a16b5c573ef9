"""The thinking fields of a Chat Completions body, in the format the provider's compat names."""

from __future__ import annotations

from typing import Any

from pi_core.providers import Model


def _mapped(model: Model, level: str) -> Any:
    """The model's own name for `level` (its `thinkingLevelMap`), else the level itself."""
    value = (model.thinking_level_map or {}).get(level)
    return level if value is None else value


def thinking_fields(model: Model, flags: dict[str, Any], level: str | None) -> dict[str, Any]:
    """The fields pi sends for thinking `level` (None: off) under `thinkingFormat`."""
    if not model.reasoning:
        return {}
    on = level is not None
    form = flags["thinkingFormat"]
    if form in ("zai", "qwen"):
        return {"enable_thinking": on}
    if form == "qwen-chat-template":
        return {"chat_template_kwargs": {"enable_thinking": on, "preserve_thinking": True}}
    if form == "deepseek":
        fields: dict[str, Any] = {"thinking": {"type": "enabled" if on else "disabled"}}
        if level is not None:
            fields["reasoning_effort"] = _mapped(model, level)
        return fields
    if form == "openrouter":
        if level is not None:
            return {"reasoning": {"effort": _mapped(model, level)}}
        levels = model.thinking_level_map or {}
        if "off" in levels and levels["off"] is None:
            return {}
        return {"reasoning": {"effort": levels.get("off") or "none"}}
    if not flags["supportsReasoningEffort"]:
        return {}
    if level is not None:
        return {"reasoning_effort": _mapped(model, level)}
    off = (model.thinking_level_map or {}).get("off")
    return {"reasoning_effort": off} if isinstance(off, str) else {}
