"""What the REPL shows when the session is replaced, as pi 0.73.1 rebuilds its chat then.

After `/new`, `/resume` and `/import` pi clears its chat and renders the current session's
messages (none for a new one), so the old conversation leaves the screen. The editor's history
follows an opened session (at start too): pi adds its user messages on top of the prompts typed
so far, and here the history file becomes the one of the folder the session works in (one file
per folder).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from prompt_toolkit.history import FileHistory

from pi_core.messages.llm import UserMessage, content_text
from pi_core.modes.interactive.editor import history_path
from pi_core.modes.interactive.relayout import relayout

if TYPE_CHECKING:
    from pi_core.modes.interactive.host import CommandHost


class SessionHistory(FileHistory):
    """A folder's history file with an opened session's prompts on top (those are not stored:
    the file keeps what was typed in this folder)."""

    def __init__(self, path: Path, prompts: list[str]) -> None:
        super().__init__(str(path))
        self.prompts = prompts

    def load_history_strings(self) -> Iterable[str]:
        """The session's prompts newest first, then the file's; no entry twice in a row."""
        previous = None
        for text in [*reversed(self.prompts), *super().load_history_strings()]:
            if text != previous:
                yield text
            previous = text


def session_prompts(messages: list[Any]) -> list[str]:
    """The text of every user message, oldest first (pi's editor history takes these)."""
    texts = (content_text(m.content).strip() for m in messages if isinstance(m, UserMessage))
    return [text for text in texts if text]


def folder_history(session: Any) -> SessionHistory:
    """The editor's history for `session`: its folder's file, its prompts on top."""
    path = history_path(session.plugins.agent_dir, str(session.cwd))
    path.parent.mkdir(parents=True, exist_ok=True)
    return SessionHistory(path, session_prompts(session.messages))


async def show_new_session(app: CommandHost) -> None:
    """After `/new`: the old conversation leaves the screen (and the scrollback)."""
    await relayout(app, app.columns())


async def show_opened_session(app: CommandHost) -> None:
    """After `/resume` or `/import`: take the folder's history with the session's prompts on
    top, and show only the opened session's conversation."""
    app.buffer.history = folder_history(app.session)
    app.buffer.reset()  # its history is loaded again on the next draw
    await relayout(app, app.columns())
