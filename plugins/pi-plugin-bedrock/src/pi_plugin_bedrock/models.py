"""What a Bedrock model supports, judged from its id and name as pi judges it."""

from __future__ import annotations

import os
import re

from pi_core.providers import Model


def _candidates(model: Model) -> list[str]:
    values = [model.id, model.name] if model.name else [model.id]
    lowered = [value.lower() for value in values]
    return [form for value in lowered for form in (value, re.sub(r"[\s_.:]+", "-", value))]


def is_claude(model: Model) -> bool:
    """An Anthropic Claude model (its id, or the name of an application inference profile)."""
    model_id, name = model.id.lower(), (model.name or "").lower()
    return any(m in model_id for m in ("anthropic.claude", "anthropic/claude")) or "claude" in name


def adaptive_thinking(model: Model) -> bool:
    """Opus 4.6+, Sonnet 4.6: thinking by effort, not by budget."""
    markers = ("opus-4-6", "opus-4-7", "sonnet-4-6")
    return any(marker in value for value in _candidates(model) for marker in markers)


def native_xhigh(model: Model) -> bool:
    """Models with an `xhigh` effort of their own (Opus 4.7)."""
    return any("opus-4-7" in value for value in _candidates(model))


def prompt_caching(model: Model) -> bool:
    """Claude 4.x, 3.7 Sonnet, 3.5 Haiku take cache points; `AWS_BEDROCK_FORCE_CACHE=1` forces
    them for profiles whose ARN names no model."""
    candidates = _candidates(model)
    if not any("claude" in value for value in candidates):
        return os.environ.get("AWS_BEDROCK_FORCE_CACHE") == "1"
    markers = ("-4-", "claude-3-7-sonnet", "claude-3-5-haiku")
    return any(marker in value for value in candidates for marker in markers)


def gov_cloud(model: Model, region: str | None) -> bool:
    """A GovCloud target, whose Converse schema rejects `thinking.display`."""
    model_id = model.id.lower()
    return bool(region and region.lower().startswith("us-gov-")) or model_id.startswith(
        ("us-gov.", "arn:aws-us-gov:")
    )
