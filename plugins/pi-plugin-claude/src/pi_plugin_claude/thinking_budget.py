"""`--max-thinking-tokens`: the exact thinking budget a request carries, as Claude Code sends it."""

from __future__ import annotations

from typing import Any

from pi_core import ExtensionContext, hookimpl
from pi_core.events import BeforeProviderRequestEvent


class ThinkingBudget:
    """Rewrites `thinking.budget_tokens` of Anthropic budget-thinking requests to `tokens`.

    Claude Code caps the budget one below `max_tokens`; models with adaptive thinking carry no
    budget and are left alone, as Claude Code leaves them.
    """

    __name__ = "pi-claude-thinking-budget"

    def __init__(self) -> None:
        self.tokens: int | None = None

    @hookimpl
    def before_provider_request(
        self, event: BeforeProviderRequestEvent, ctx: ExtensionContext
    ) -> Any:
        """Return the payload with the budget set, or None to leave it as it is."""
        payload = event.payload
        if self.tokens is None or not isinstance(payload, dict):
            return None
        thinking = payload.get("thinking")
        if not isinstance(thinking, dict) or thinking.get("type") != "enabled":
            return None
        budget = self.tokens
        max_tokens = payload.get("max_tokens")
        if isinstance(max_tokens, int) and max_tokens > 1:
            budget = min(budget, max_tokens - 1)
        return {**payload, "thinking": {**thinking, "budget_tokens": budget}}
