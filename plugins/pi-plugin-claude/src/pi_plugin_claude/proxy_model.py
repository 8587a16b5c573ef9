"""Model names pi does not know, sent to the Anthropic endpoint as given (as Claude Code does)."""

from __future__ import annotations

from pi_core import Model, ModelRegistry, UnknownModelError

TEMPLATE_MODEL = "claude-sonnet-4-5"
"""The known Claude model whose limits and wire format an unknown name borrows."""


def choose_model(wanted: str, registry: ModelRegistry, anthropic_env: bool) -> Model | str:
    """`wanted` when pi knows it; else, with ANTHROPIC_* set, an anthropic model of that id.

    A proxy behind ANTHROPIC_BASE_URL may serve names pi has never heard of; Claude Code sends
    them unchanged, so pi-claude does too. Without ANTHROPIC_*, or for another provider's
    `provider/id`, the name stays unknown.
    """
    try:
        registry.resolve(wanted)
    except UnknownModelError:
        model_id = wanted.removeprefix("anthropic/")
        if not anthropic_env or "/" in model_id:  # another provider's name stays unknown
            raise
        return proxy_model(model_id, registry)
    return wanted


def proxy_model(model_id: str, registry: ModelRegistry) -> Model:
    """An anthropic-messages model named `model_id`, shaped like pi's Claude models."""
    template = registry.find("anthropic", TEMPLATE_MODEL)
    if template is None:
        known = [m for m in registry.all_models() if m.provider == "anthropic"]
        template = known[0] if known else None
    if template is None:
        return Model(id=model_id, name=model_id, api="anthropic-messages", provider="anthropic")
    return template.model_copy(update={"id": model_id, "name": model_id})
