"""Bash: Claude's schema (timeout in milliseconds, run_in_background) over pi's bash tool."""

from __future__ import annotations

import asyncio
import os
import re
import tempfile
import uuid
from typing import TYPE_CHECKING

from pi_plugin_tools.api import run_in_shell

from pi_core.tools import ToolResult
from pi_plugin_claude.profile.base import ClaudeTool
from pi_plugin_claude.profile.inputs import BashInput

if TYPE_CHECKING:
    from pi_core import ExtensionContext
    from pi_core.abort import AbortSignal
    from pi_core.tools import ToolUpdateCallback

DEFAULT_TIMEOUT_MS = 120_000
MAX_TIMEOUT_MS = 600_000
NO_OUTPUT = "(Bash completed with no output)"

_background: dict[str, tuple[object, asyncio.Task[None]]] = {}
"""Background commands by id, each with its session (`ctx.events`) and the task that keeps the
command running until it ends."""


def timeout_seconds(timeout_ms: float | None) -> float:
    """Claude's timeout (ms, default 2 minutes, at most 10) in seconds for pi's bash."""
    value = DEFAULT_TIMEOUT_MS if timeout_ms is None or timeout_ms <= 0 else timeout_ms
    return min(value, MAX_TIMEOUT_MS) / 1000


class BashTool(ClaudeTool[BashInput]):
    """`Bash`: runs through pi's bash (process groups, truncation, abort)."""

    name = "Bash"
    label = "Bash"
    description = (
        "Runs a command in bash. timeout is in milliseconds: 120000 when left out, 600000 at "
        "most. Say in description what the command is for. For a long-running command set "
        "run_in_background; its output goes to a file you can read afterwards."
    )
    parameters = BashInput
    prompt_snippet = "Execute bash commands"

    async def execute(
        self,
        call_id: str,
        params: BashInput,
        signal: AbortSignal | None,
        on_update: ToolUpdateCallback | None,
        ctx: ExtensionContext,
    ) -> ToolResult:
        """Run the command in the foreground (pi's bash) or start it in the background."""
        if params.run_in_background:
            return await self._start_background(params.command, ctx.cwd, ctx.events)
        arguments = {"command": params.command, "timeout": timeout_seconds(params.timeout)}
        tool = self.pi_tool("bash")
        result = await tool.execute(
            call_id, tool.validate_arguments(arguments), signal, on_update, ctx
        )
        text = result.text_content()
        if text == "(no output)":
            return ToolResult.text(NO_OUTPUT, result.details)
        return ToolResult.text(text.rstrip(), result.details)

    async def _start_background(self, command: str, cwd: str, owner: object) -> ToolResult:
        task_id = uuid.uuid4().hex[:8]
        folder = tempfile.mkdtemp(prefix="pi-claude-bash-")
        path = os.path.join(folder, f"{task_id}.output")
        handle = open(path, "wb")  # noqa: SIM115 - closed when the command ends

        def on_data(chunk: bytes) -> None:
            handle.write(chunk)
            handle.flush()

        async def run() -> None:
            try:
                await run_in_shell(command, cwd, on_data)
            finally:
                handle.close()
                _background.pop(task_id, None)

        _background[task_id] = (owner, asyncio.ensure_future(run()))
        return ToolResult.text(
            f"Command running in background with ID: {task_id}. Output is being written to: "
            f"{path}. To check interim output, use Read on that file path."
        )


async def stop_background_commands(owner: object | None = None) -> int:
    """Kill the background commands still running of the session `owner` (its `ctx.events`;
    None: of every session), as that session ends; return how many."""
    ids = [i for i, (who, _) in _background.items() if owner is None or who is owner]
    tasks = [_background.pop(i)[1] for i in ids]  # a task cancelled unstarted never pops itself
    for task in tasks:
        task.cancel()  # run_in_shell kills the command's whole process group
    await asyncio.gather(*tasks, return_exceptions=True)
    return len(tasks)


def exit_code_of(message: str) -> int | None:
    """The exit code in pi's `Command exited with code N` message, if any."""
    match = re.search(r"Command exited with code (\d+)", message)
    return int(match.group(1)) if match else None
