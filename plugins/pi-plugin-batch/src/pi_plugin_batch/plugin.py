"""The batch plugin inside each child session: records the task, enforces the budget.

It does nothing unless the batch driver started this pi (PI_BATCH_TASK / PI_BATCH_MAX_COST).
"""

from __future__ import annotations

import json
import os
from typing import Any

from pi_core import AssistantMessage, ExtensionContext, ToolCallEvent, ToolCallResult, hookimpl
from pi_core.events import MessageEndEvent
from pi_plugin_batch.budget import TASK_ENV, Budget, budget_from_env

TASK_ENTRY = "batch_task"

_budget: Budget | None = budget_from_env()


@hookimpl
def session_start(ctx: ExtensionContext) -> None:
    """Record the task (id, repo, ref, attempt, metadata) in the session as a custom entry."""
    raw = os.environ.get(TASK_ENV)
    if raw:
        ctx.append_entry(TASK_ENTRY, json.loads(raw))


@hookimpl
def message_end(event: MessageEndEvent) -> None:
    """Count each response's cost as it ends."""
    if _budget is not None and isinstance(event.message, AssistantMessage):
        _budget.add(float(event.message.usage.cost.total))


@hookimpl
def tool_call(event: ToolCallEvent) -> ToolCallResult | None:
    """Refuse every tool once the budget is spent (the model is told why, in the session)."""
    if _budget is None or not _budget.exceeded:
        return None
    _budget.stopped(f"tool {event.tool_name}")
    return ToolCallResult(block=True, reason=_budget.reason())


@hookimpl
def before_provider_request(event: Any, ctx: ExtensionContext) -> None:
    """Abort the run instead of sending a request once the budget is spent."""
    if _budget is not None and _budget.exceeded:
        _budget.stopped("request")
        ctx.abort()
