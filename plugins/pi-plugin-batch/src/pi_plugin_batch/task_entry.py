"""Records the task in an in-process session, as the child plugin does in a batch child."""

from __future__ import annotations

from pi_core import ExtensionContext, hookimpl
from pi_plugin_batch.plugin import TASK_ENTRY
from pi_plugin_batch.runner import AttemptSpec


class TaskEntry:
    """Adds the `batch_task` custom entry (id, repo, ref, workdir, attempt, metadata)."""

    def __init__(self, spec: AttemptSpec) -> None:
        task = spec.task
        self.data = {"id": task.id, "repo": task.repo, "ref": task.ref, "workdir": task.workdir,
                     "attempt": spec.attempt, "metadata": task.metadata}  # fmt: skip

    @hookimpl
    def session_start(self, ctx: ExtensionContext) -> None:
        """Record the task when the session starts."""
        ctx.append_entry(TASK_ENTRY, self.data)
