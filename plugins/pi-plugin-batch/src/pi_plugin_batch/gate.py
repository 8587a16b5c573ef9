"""The budget gate as a plugin object: counts each response's cost, then stops tools and requests.

The child's module plugin (`pi_plugin_batch.plugin`) and `rollout()` both use it; a rollout
registers its own instance, so rollouts in one process never share a budget.
"""

from __future__ import annotations

from typing import Any

from pi_core import AssistantMessage, ExtensionContext, ToolCallEvent, ToolCallResult, hookimpl
from pi_core.events import MessageEndEvent
from pi_plugin_batch.budget import Budget


class BudgetGate:
    """Enforces one budget inside one session, before the next tool or request runs."""

    def __init__(self, budget: Budget) -> None:
        self.budget = budget
        self.stopped: str | None = None  # what the budget stopped first ("tool bash", "request")

    def _stop(self, what: str) -> None:
        self.stopped = self.stopped or what
        self.budget.stopped(what)

    @hookimpl
    def message_end(self, event: MessageEndEvent) -> None:
        """Count each response's cost as it ends."""
        if isinstance(event.message, AssistantMessage):
            self.budget.add(float(event.message.usage.cost.total))

    @hookimpl
    def tool_call(self, event: ToolCallEvent) -> ToolCallResult | None:
        """Refuse every tool once the budget is spent (the model is told why, in the session)."""
        if not self.budget.exceeded:
            return None
        self._stop(f"tool {event.tool_name}")
        return ToolCallResult(block=True, reason=self.budget.reason())

    @hookimpl
    def before_provider_request(self, event: Any, ctx: ExtensionContext) -> None:
        """Abort the run instead of sending a request once the budget is spent."""
        if self.budget.exceeded:
            self._stop("request")
            ctx.abort()
