"""A saved session whose working directory is gone: found before the session is opened.

pi 0.73.1 will not open such a session as it is: print, json and rpc modes stop with an error,
and its REPL asks whether to continue in the current folder instead. Continuing keeps the session
file (its header still names the old folder); only the running session works in the new one.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pi_core.session.manager import SessionManager

HEADER_BYTES = 64 * 1024  # a header line is short; a longer first line is not read as one


@dataclass(frozen=True)
class MissingSessionCwd:
    """A session file whose stored cwd does not exist, and the folder that could replace it."""

    session_file: str
    session_cwd: str
    fallback_cwd: str

    def message(self) -> str:
        """The error text of the modes that cannot ask (print, json, rpc)."""
        return (
            f"The session's working directory no longer exists: {self.session_cwd}\n"
            f"Session file: {self.session_file}\n"
            f"Current working directory: {self.fallback_cwd}"
        )

    def question(self) -> str:
        """The REPL's question: the missing folder, then the one it would continue in."""
        return (
            f"The session's folder does not exist:\n{self.session_cwd}\n\n"
            f"Continue in the current folder?\n{self.fallback_cwd}"
        )


class MissingSessionCwdError(RuntimeError):
    """Raised instead of opening a session whose stored cwd is gone; `issue` says which."""

    def __init__(self, issue: MissingSessionCwd) -> None:
        super().__init__(issue.message())
        self.issue = issue


def missing_cwd_of_manager(manager: SessionManager, fallback_cwd: str) -> MissingSessionCwd | None:
    """Return the issue when the opened session's file names a cwd that does not exist."""
    if manager.session_file is None or not manager.persist:
        return None
    return _issue(str(manager.session_file), manager.cwd, fallback_cwd)


def missing_cwd_of_file(path: str | Path, fallback_cwd: str) -> MissingSessionCwd | None:
    """Return the issue when the session file's header names a cwd that does not exist (a
    missing file, or one without a header, starts a new session here: no issue)."""
    return _issue(str(path), stored_cwd(Path(path)), fallback_cwd)


def stored_cwd(path: Path) -> str | None:
    """Return the `cwd` of the file's session header, reading only its first line."""
    try:
        with path.open("rb") as handle:
            first = handle.readline(HEADER_BYTES)
        header = json.loads(first)
    except (OSError, ValueError):
        return None
    if not isinstance(header, dict) or header.get("type") != "session":
        return None
    cwd = header.get("cwd")
    return cwd if isinstance(cwd, str) else None


def _issue(session_file: str, cwd: str | None, fallback_cwd: str) -> MissingSessionCwd | None:
    if not cwd or os.path.exists(cwd):
        return None
    return MissingSessionCwd(session_file, cwd, fallback_cwd)
