"""A task's spending limit, counted inside the child pi session as responses arrive."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

BUDGET_ENV = "PI_BATCH_MAX_COST"
STATE_ENV = "PI_BATCH_STATE"
TASK_ENV = "PI_BATCH_TASK"


@dataclass
class Budget:
    """Dollars allowed and spent; `exceeded` once spending reaches the limit."""

    limit: float
    spent: float = 0.0
    state_file: Path | None = None

    @property
    def exceeded(self) -> bool:
        """Whether nothing more may run."""
        return self.spent >= self.limit

    def add(self, cost: float) -> None:
        """Count one response's cost."""
        self.spent += cost

    def stopped(self, what: str) -> None:
        """Tell the driver the budget stopped something (a tool, a request)."""
        if self.state_file is not None:
            state = {"budget_exceeded": True, "spent": self.spent, "limit": self.limit,
                     "stopped": what}  # fmt: skip
            self.state_file.write_text(json.dumps(state))

    def reason(self) -> str:
        """What the model is told when a tool is refused."""
        spent, limit = f"${self.spent:.4f}", f"${self.limit:.4f}"
        return f"Budget exceeded: spent {spent} of {limit}; the batch stopped this task."


def budget_from_env() -> Budget | None:
    """The budget the batch driver passed to this child, or None outside a batch."""
    raw = os.environ.get(BUDGET_ENV)
    if not raw:
        return None
    state = os.environ.get(STATE_ENV)
    return Budget(float(raw), state_file=Path(state) if state else None)
