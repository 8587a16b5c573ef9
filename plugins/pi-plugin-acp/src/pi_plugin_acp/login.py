"""`pi acp --login`: pi's REPL with `/login` typed in, for an editor's terminal login."""

from __future__ import annotations

import os


async def run_login() -> int:
    """Open the REPL on a session kept in memory, its editor holding `/login`; returns the
    REPL's exit code (the user leaves it with /quit or Ctrl+D once logged in)."""
    from prompt_toolkit.document import Document

    from pi_core import SessionManager, create_agent_session
    from pi_core.modes.interactive import run_app
    from pi_core.modes.interactive.extension_ui import InteractiveUI

    ui = InteractiveUI()
    cwd = os.getcwd()
    session = await create_agent_session(
        cwd=cwd, session=SessionManager.in_memory(cwd), ui=ui, no_tools=True
    )
    try:
        code: int = await run_app(session, ui, None, None, [], draft=Document("/login"))
        return code
    finally:
        await session.shutdown()
