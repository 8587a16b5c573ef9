"""`bash` over the client's `terminal/*` methods: the command runs in the editor's terminal
(create, wait for exit, read the output, kill on abort or timeout, release)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, Literal

from pi_core.abort import AbortError, AbortSignal
from pi_core.tools import BashExecResult

OUTPUT_LIMIT = 1024 * 1024


class ClientTerminal:
    """pi's BashOperations on an ACP client's terminals."""

    def __init__(self, conn: Any, session_id: Callable[[], str]) -> None:
        self._conn = conn
        self._session_id = session_id

    async def exec(
        self,
        command: str,
        cwd: str,
        *,
        on_data: Callable[[bytes], None],
        signal: AbortSignal | None = None,
        timeout: float | None = None,
        env: dict[str, str] | None = None,
    ) -> BashExecResult:
        """Run `command` with `bash -c` in a client terminal; its output arrives at the end."""
        sid = self._session_id()
        created = await self._conn.create_terminal(
            session_id=sid,
            command="bash",
            args=["-c", command],
            cwd=cwd,
            output_byte_limit=OUTPUT_LIMIT,
        )
        terminal = created.terminal_id
        stopped: Literal["aborted", "timeout"] | None = None
        exit_code: int | None = None
        try:
            waiting = self._conn.wait_for_terminal_exit(session_id=sid, terminal_id=terminal)
            try:
                raced = signal.race(waiting) if signal is not None else waiting
                status = await asyncio.wait_for(raced, timeout)
                exit_code = status.exit_code
            except AbortError:
                stopped = "aborted"
            except TimeoutError:
                stopped = "timeout"
            if stopped is not None:
                await self._conn.kill_terminal(session_id=sid, terminal_id=terminal)
            output = await self._conn.terminal_output(session_id=sid, terminal_id=terminal)
            if output.output:
                on_data(output.output.encode("utf-8"))
        finally:
            await self._conn.release_terminal(session_id=sid, terminal_id=terminal)
        return BashExecResult(exit_code=exit_code, stopped=stopped)
