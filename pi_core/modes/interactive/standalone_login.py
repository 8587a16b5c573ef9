"""`/login` on its own: pi's REPL opened only to log in, leaving when the login ends (for a
terminal login an editor runs, such as `pi acp --login`)."""

from __future__ import annotations

import os
from typing import Any


async def run_login() -> int:
    """Open the REPL on a session kept in memory, run `/login` in it, then leave; returns the
    REPL's exit code."""
    from pi_core.modes.interactive import run_app
    from pi_core.modes.interactive.extension_ui import InteractiveUI
    from pi_core.sdk import create_agent_session
    from pi_core.session.manager import SessionManager

    ui = InteractiveUI()
    cwd = os.getcwd()
    session = await create_agent_session(
        cwd=cwd, session=SessionManager.in_memory(cwd), ui=ui, no_tools=True
    )
    try:
        code: int = await run_app(session, ui, None, None, [], on_start=_login_then_leave)
        return code
    finally:
        await session.shutdown()


async def _login_then_leave(app: Any) -> None:
    from pi_core.modes.interactive.login import login

    try:
        await login(app, "")
    finally:
        app.exit()
