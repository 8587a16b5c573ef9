"""pi batch: many headless pi sessions from a JSONL task file, resumable and budgeted."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pi_plugin_batch.rollouts import Rollout, rollout, rollout_sync

__all__ = ["Rollout", "rollout", "rollout_sync"]


def __getattr__(name: str) -> Any:
    # imported on first use: every pi loads this package's plugin, few call rollout()
    if name in __all__:
        from pi_plugin_batch import rollouts as module

        return getattr(module, name)
    raise AttributeError(name)
