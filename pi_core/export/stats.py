"""The page header's figures: messages, tool calls, tokens, cost and models, entry by entry."""

from __future__ import annotations

from typing import Any

from pi_core.export.tree import RawEntry

_COUNTS = ("user", "assistant", "toolResults", "custom", "compactions", "branchSummaries")
_TOKENS = ("input", "output", "cacheRead", "cacheWrite")


class PageStats:
    """Figures over every entry added (every branch); entries need not be kept."""

    def __init__(self) -> None:
        self.counts = dict.fromkeys((*_COUNTS, "toolCalls"), 0)
        self.tokens = dict.fromkeys(_TOKENS, 0)
        self.cost = 0.0
        self.models: dict[str, None] = {}

    def add(self, entry: RawEntry) -> None:
        """Count one entry."""
        kind = entry.get("type")
        message = entry.get("message") if kind == "message" else None
        if isinstance(message, dict):
            role = message.get("role")
            if role == "user":
                self.counts["user"] += 1
            elif role == "toolResult":
                self.counts["toolResults"] += 1
            elif role == "assistant":
                self._assistant(message)
        elif kind == "compaction":
            self.counts["compactions"] += 1
        elif kind == "branch_summary":
            self.counts["branchSummaries"] += 1
        elif kind == "custom_message":
            self.counts["custom"] += 1

    def _assistant(self, message: RawEntry) -> None:
        self.counts["assistant"] += 1
        model = message.get("model")
        if isinstance(model, str) and model:
            provider = message.get("provider")
            self.models[
                f"{provider}/{model}" if isinstance(provider, str) and provider else model
            ] = None
        usage = message.get("usage")
        if isinstance(usage, dict):
            tokens = self.tokens
            for key in _TOKENS:
                value = usage.get(key)
                if type(value) is int:  # not a bool
                    tokens[key] += value
            spent = usage.get("cost")
            if isinstance(spent, dict):
                for key in _TOKENS:
                    value = spent.get(key)
                    if type(value) is float or type(value) is int:
                        self.cost += value
        content = message.get("content")
        if isinstance(content, list):
            calls = 0
            for block in content:
                if isinstance(block, dict) and block.get("type") == "toolCall":
                    calls += 1
            self.counts["toolCalls"] += calls

    def as_dict(self) -> dict[str, Any]:
        """The figures: counts, tokens, cost and the models, as the header shows them."""
        return {
            "counts": dict(self.counts),
            "tokens": dict(self.tokens),
            "cost": self.cost,
            "models": list(self.models),
        }
