"""The sessions `pi mcp serve` runs: one real pi session per pi_run, kept for pi_reply."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pi_plugin_mcp._pi import AgentSession, create_agent_session
from pi_plugin_mcp.serve.gate import ApprovalGate
from pi_plugin_mcp.serve.patch import git_patch
from pi_plugin_mcp.serve.turn import Limits, Report, run_turn


class UnknownSession(LookupError):
    """pi_reply named a session this server did not start."""


@dataclass
class Served:
    """A live session and what its calls need: the folder and a lock (one prompt at a time)."""

    session: AgentSession
    cwd: Path
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


class ServedSessions:
    """Starts sessions for pi_run and continues them for pi_reply; all of them gated."""

    def __init__(self, approve: bool) -> None:
        self.approve = approve
        self._sessions: dict[str, Served] = {}

    async def run(
        self,
        prompt: str,
        cwd: str,
        report: Report,
        *,
        model: str | None = None,
        tools: list[str] | None = None,
        limits: Limits | None = None,
    ) -> dict[str, Any]:
        """Start a session in `cwd` (saved as a pi session file) and run `prompt` in it."""
        folder = Path(cwd).expanduser().resolve()
        if not folder.is_dir():
            raise ValueError(f"cwd {cwd!r} is not a folder")
        session = await create_agent_session(
            cwd=folder,
            model=model,
            tools=tools,
            plugins=[ApprovalGate(self.approve)],
        )
        if session.model is None:
            await session.shutdown()
            raise ValueError(f"Unknown model {model!r}" if model else "No model selected")
        served = Served(session, folder)
        self._sessions[session.session_id] = served
        await report(f"session {session.session_id} started")
        return await self._turn(served, prompt, limits or Limits(), report)

    async def reply(
        self, session_id: str, prompt: str, report: Report, limits: Limits | None = None
    ) -> dict[str, Any]:
        """Continue a session this server started with another prompt (after the prompt it
        runs, if any)."""
        served = self._sessions.get(session_id)
        if served is None:
            raise UnknownSession(f"No session {session_id!r} was started by this server")
        return await self._turn(served, prompt, limits or Limits(), report)

    async def _turn(
        self, served: Served, prompt: str, limits: Limits, report: Report
    ) -> dict[str, Any]:
        async with served.lock:
            session = served.session
            status = await run_turn(session, prompt, limits, report)
            stats = session.get_session_stats()
            result: dict[str, Any] = {
                "text": session.get_last_assistant_text() or "",
                "sessionId": session.session_id,
                "sessionFile": session.session_file,
                "status": status,
                "usage": stats["tokens"],
                "cost": stats["cost"],
            }
            patch = await git_patch(served.cwd)
            if patch is not None:
                result["patch"] = patch
            return result

    async def close(self) -> None:
        """End every session (plugins hear `session_shutdown`; files are closed)."""
        sessions, self._sessions = list(self._sessions.values()), {}
        for served in sessions:
            await served.session.shutdown()
