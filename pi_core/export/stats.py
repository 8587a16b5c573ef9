"""The page header's figures: messages, tool calls, tokens, cost and models, entry by entry."""

from __future__ import annotations

from typing import Any

from pi_core.export.tree import RawEntry, string

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
        model = string(message.get("model"))
        if model:
            provider = string(message.get("provider"))
            self.models[f"{provider}/{model}" if provider else model] = None
        usage = message.get("usage")
        if isinstance(usage, dict):
            for key in _TOKENS:
                self.tokens[key] += _int(usage.get(key))
            spent = usage.get("cost")
            if isinstance(spent, dict):
                self.cost += sum(_float(spent.get(k)) for k in _TOKENS)
        content = message.get("content")
        if isinstance(content, list):
            self.counts["toolCalls"] += sum(
                1 for b in content if isinstance(b, dict) and b.get("type") == "toolCall"
            )

    def as_dict(self) -> dict[str, Any]:
        """The figures as `compute_stats` returns them."""
        return {
            "counts": dict(self.counts),
            "tokens": dict(self.tokens),
            "cost": self.cost,
            "models": list(self.models),
        }


def _int(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _float(value: Any) -> float:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else 0.0
