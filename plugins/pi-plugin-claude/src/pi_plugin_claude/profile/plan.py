"""TodoWrite and ExitPlanMode: the session's todo list, and leaving plan mode.

ExitPlanMode's approval is the permission gate's job (it always asks; an approved call ends
plan mode), so by the time the tool runs the plan has been approved.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pi_core.tools import ToolResult
from pi_plugin_claude.profile.base import ClaudeTool
from pi_plugin_claude.profile.inputs import ExitPlanModeInput, TodoWriteInput

if TYPE_CHECKING:
    from pi_core import ExtensionContext
    from pi_core.abort import AbortSignal
    from pi_core.tools import ToolUpdateCallback

TODOS_UPDATED = (
    "Todos have been modified successfully. Ensure that you continue to use the todo list to "
    "track your progress. Please proceed with the current tasks if applicable"
)
PLAN_APPROVED = (
    "User has approved your plan. You can now start coding. Start with updating your todo list "
    "if applicable"
)


class TodoWriteTool(ClaudeTool[TodoWriteInput]):
    """`TodoWrite`: replace the session's todo list (kept in the result details)."""

    name = "TodoWrite"
    label = "TodoWrite"
    description = (
        "Keeps the to-do list for the work in progress: send the whole updated list each time. "
        "Every item has content, a status (pending, in_progress or completed) and activeForm."
    )
    parameters = TodoWriteInput
    prompt_snippet = "Track a todo list for the task at hand"

    def __init__(self) -> None:
        self.todos: list[dict[str, Any]] = []

    async def execute(
        self,
        call_id: str,
        params: TodoWriteInput,
        signal: AbortSignal | None,
        on_update: ToolUpdateCallback | None,
        ctx: ExtensionContext,
    ) -> ToolResult:
        """Store the new list; a list with every item completed is cleared, as Claude does."""
        old = self.todos
        new = [todo.as_claude() for todo in params.todos]
        done = bool(new) and all(todo["status"] == "completed" for todo in new)
        self.todos = [] if done else new
        return ToolResult.text(TODOS_UPDATED, {"oldTodos": old, "newTodos": new})


class ExitPlanModeTool(ClaudeTool[ExitPlanModeInput]):
    """`ExitPlanMode`: present the plan; runs only once the user approved it."""

    name = "ExitPlanMode"
    label = "ExitPlanMode"
    description = (
        "Call this once a plan is ready while in plan mode: the user sees it and approves or "
        "rejects it. Until it is approved, plan mode allows no changes."
    )
    parameters = ExitPlanModeInput
    prompt_snippet = "Present a plan for approval and leave plan mode"

    async def execute(
        self,
        call_id: str,
        params: ExitPlanModeInput,
        signal: AbortSignal | None,
        on_update: ToolUpdateCallback | None,
        ctx: ExtensionContext,
    ) -> ToolResult:
        """The plan was approved (the gate asked): say so, and repeat the plan."""
        text = PLAN_APPROVED
        if params.plan:
            text += f"\n\n## Approved Plan:\n{params.plan}"
        return ToolResult.text(text, {"plan": params.plan})
