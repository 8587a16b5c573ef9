"""What the AgentSession lends its collaborators: the session's own actions, as callables."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class SessionControls:
    """The AgentSession's actions its collaborators call, without holding the session itself."""

    emit: Callable[[Any], None]
    """Send an event to the session's subscribers."""
    abort: Callable[[], Awaitable[None]]
    """Abort what runs (the agent, a retry, a compaction, a branch summary); wait until idle."""
    reload_messages: Callable[[], None]
    """Rebuild the agent's transcript from the session file's current branch."""
    drop_trailing_error: Callable[[], None]
    """Remove a failed response from the context."""
    schedule_continue: Callable[[], None]
    """Continue the agent once the current run ended."""
    settle: Callable[[], Awaitable[None]]
    """Wait until retries, automatic continues and the agent itself are done."""
    spawn: Callable[[Coroutine[Any, Any, Any]], None]
    """Run follow-on work in the background; `prompt()` and `settle()` wait for it."""
    request_shutdown: Callable[[], None]
    """Ask the mode running the session to shut down."""
