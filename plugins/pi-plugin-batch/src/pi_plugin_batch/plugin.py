"""The batch plugin inside each child session: records the task, enforces the budget.

It does nothing unless the batch driver started this pi (PI_BATCH_TASK / PI_BATCH_MAX_COST /
PI_BATCH_TOKENS).
"""

from __future__ import annotations

import json
import os
from typing import Any

from pi_core import ExtensionContext, ToolCallEvent, ToolCallResult, hookimpl
from pi_core.events import MessageEndEvent
from pi_plugin_batch.budget import TASK_ENV, budget_from_env
from pi_plugin_batch.gate import BudgetGate
from pi_plugin_batch.token_request import token_request_from_env

TASK_ENTRY = "batch_task"

_budget = budget_from_env()
_gate: BudgetGate | None = BudgetGate(_budget) if _budget is not None else None
_tokens = token_request_from_env()


@hookimpl
def session_start(ctx: ExtensionContext) -> None:
    """Record the task (id, repo, ref, attempt, metadata) in the session as a custom entry."""
    raw = os.environ.get(TASK_ENV)
    if raw:
        ctx.append_entry(TASK_ENTRY, json.loads(raw))


# Outside a batch child (no budget, no token request) these hooks are not defined at all: a
# hook with an implementation is dispatched on every response, tool call and request, and the
# `before_provider_request` chain gets a deep copy of the whole request body.
if _gate is not None:
    _active: BudgetGate = _gate

    @hookimpl
    def message_end(event: MessageEndEvent) -> None:
        """Count each response's cost as it ends."""
        _active.message_end(event)

    @hookimpl
    def tool_call(event: ToolCallEvent) -> ToolCallResult | None:
        """Refuse every tool once the budget is spent (the model is told why, in the session)."""
        return _active.tool_call(event)


if _gate is not None or _tokens is not None:

    @hookimpl
    def before_provider_request(event: Any, ctx: ExtensionContext) -> Any:
        """Abort the run once the budget is spent; else ask for token ids / logprobs if told to."""
        if _gate is not None:
            _gate.before_provider_request(event, ctx)
        return _tokens.before_provider_request(event, ctx) if _tokens is not None else None
