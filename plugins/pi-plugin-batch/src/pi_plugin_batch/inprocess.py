"""One pi session run in this process through the SDK, cut at its timeout or idle timeout."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from pi_core import LoadOptions, SessionManager, create_agent_session
from pi_core.events import MessageEndEvent
from pi_core.tools import BashSpawnContext, ToolOperations
from pi_plugin_batch.child import ChildOutcome

ABORT_GRACE_S = 10.0  # how long an aborted run may take to wind down before it is cancelled


@dataclass
class InProcessRun:
    """What to run: the prompt, where, with which agent folder, plugins and limits."""

    prompt: str
    cwd: Path
    agent_dir: Path
    session_path: Path
    model: str | None = None
    tools: list[str] | None = None
    plugins: list[Any] = field(default_factory=list)
    extension_paths: list[str] = field(default_factory=list)
    env: dict[str, str] = field(default_factory=dict)
    timeout_s: float | None = None
    idle_timeout_s: float | None = None


async def run_in_process(
    run: InProcessRun, on_event: Callable[[Any], None] | None = None
) -> tuple[ChildOutcome, str]:
    """Run the session to its end; return what it did and the error text of a failed start."""
    outcome = ChildOutcome()
    started = time.monotonic()
    try:
        session = await create_agent_session(
            cwd=run.cwd, agent_dir=run.agent_dir, model=run.model, tools=run.tools,
            no_tools=run.tools == [], plugins=run.plugins,
            load_options=LoadOptions(extension_paths=run.extension_paths),
            session=SessionManager.open(run.session_path, cwd=str(run.cwd)),
            tool_operations=_with_env(run.env),
        )  # fmt: skip
    except Exception as error:  # pi refused to start (no model, no key, a plugin): the table
        outcome.wall_s = time.monotonic() - started  # sorts it by its text
        outcome.exit_code = 1  # as `pi --mode json` exits
        return outcome, str(error)
    last_event = [time.monotonic()]

    def listen(event: Any) -> None:
        last_event[0] = time.monotonic()
        if isinstance(event, MessageEndEvent):
            outcome.messages.append(event.message.to_wire())
        elif getattr(event, "type", None) == "agent_end":
            outcome.saw_agent_end = True
        if on_event is not None:
            on_event(event)

    session.subscribe(listen)
    error_text = ""
    prompt = asyncio.ensure_future(session.prompt(run.prompt))
    try:
        outcome.killed_for = await _watch(prompt, run, started, last_event)
        if outcome.killed_for is not None:
            await _stop(session, prompt)
        elif not prompt.cancelled() and prompt.exception() is not None:
            error_text = str(prompt.exception())
            outcome.exit_code = 1
        else:
            outcome.exit_code = 0  # a cut run keeps None: there is no process to exit
    finally:
        if not prompt.done():
            prompt.cancel()
        with contextlib.suppress(Exception):
            await session.shutdown()
    outcome.wall_s = time.monotonic() - started
    return outcome, error_text


async def _watch(
    prompt: asyncio.Future[Any], run: InProcessRun, started: float, last_event: list[float]
) -> str | None:
    """Wait for the prompt; return "timeout" or "idle_timeout" when a limit passes first."""
    while not prompt.done():
        deadlines = []
        if run.timeout_s is not None:
            deadlines.append((started + run.timeout_s, "timeout"))
        if run.idle_timeout_s is not None:
            deadlines.append((last_event[0] + run.idle_timeout_s, "idle_timeout"))
        if not deadlines:
            await asyncio.wait({prompt})
            break
        deadline, reason = min(deadlines)
        left = deadline - time.monotonic()
        if left <= 0:
            return reason
        await asyncio.wait({prompt}, timeout=left)
    return None


async def _stop(session: Any, prompt: asyncio.Future[Any]) -> None:
    """Abort the run (a running tool is signalled); cancel it if it does not wind down."""
    with contextlib.suppress(Exception):
        await asyncio.wait_for(session.abort(), ABORT_GRACE_S)
    if not prompt.done():
        prompt.cancel()
    await asyncio.gather(prompt, return_exceptions=True)


def _with_env(env: dict[str, str]) -> ToolOperations | None:
    """Bash operations that run every command with the task's extra environment."""
    if not env:
        return None

    def add_env(context: BashSpawnContext) -> BashSpawnContext:
        return replace(context, env={**context.env, **env})

    return ToolOperations(spawn_hook=add_env)
