"""What the REPL shows while it runs: the working row, the status line, the queues, retries."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any

from pi_core.agent_session.session_events import QueueUpdateEvent


@dataclass
class LiveState:
    """The REPL's live state; the app draws it, the satellites update it."""

    working: str | None = None  # the working row's text (compaction, bash, reload); None: idle
    status_line: str | None = None  # a transient line under the live region
    queue: QueueUpdateEvent = field(default_factory=QueueUpdateEvent)
    compaction_queue: list[str] = field(default_factory=list)  # typed while compacting
    pending_bash: list[Any] = field(default_factory=list)  # `!` results held back by a run
    bash_task: asyncio.Task[Any] | None = None
    spinner_start: float = field(default_factory=time.monotonic)
    retry_until: float | None = None  # when an automatic retry fires (monotonic clock)

    def bash_running(self) -> bool:
        """Whether a `!` command runs now."""
        return self.bash_task is not None and not self.bash_task.done()
