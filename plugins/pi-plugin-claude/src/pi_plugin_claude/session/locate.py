"""Which pi session Claude Code's flags mean: new, --session-id, --resume, --continue, fork."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from pathlib import Path

from pi_core import SessionManager
from pi_plugin_claude.options import ClaudeOptions, UsageError


@dataclass
class ChosenSession:
    """The session to run, whether it carries history, and the session it was forked from."""

    manager: SessionManager
    resumed: bool
    forked_from: str | None = None


def find_session_file(cwd: str, session_id: str) -> Path | None:
    """The pi session file of `session_id` among `cwd`'s sessions, if there is one."""
    folder = SessionManager.create(cwd).session_dir
    if folder is None or not folder.is_dir():
        return None
    matches = sorted(folder.glob(f"*_{session_id}.jsonl"))
    return matches[-1] if matches else None


def _valid_uuid(text: str) -> bool:
    try:
        uuid.UUID(text)
    except ValueError:
        return False
    return True


def choose_session(options: ClaudeOptions, cwd: str) -> ChosenSession:
    """Open or create the session the flags ask for; raise UsageError when it cannot exist."""
    if options.session_id is not None and not _valid_uuid(options.session_id):
        raise UsageError("Invalid session ID. Must be a valid UUID.")
    if options.no_session_persistence and not (options.resume or options.continue_session):
        manager = SessionManager.in_memory(cwd)
        if options.session_id:
            manager.new_session(session_id=options.session_id)
        return ChosenSession(manager, resumed=False)
    source: Path | None = None
    if options.resume:
        source = find_session_file(cwd, options.resume)
        if source is None:
            raise UsageError(f"No conversation found with session ID: {options.resume}")
    elif options.continue_session:
        recent = SessionManager.continue_recent(cwd)
        if recent.session_file is None or not recent.session_file.exists():
            return ChosenSession(recent, resumed=False)
        source = recent.session_file
    if source is None:
        manager = SessionManager.create(cwd)
        if options.session_id:
            if find_session_file(cwd, options.session_id) is not None:
                raise UsageError(f"Session ID {options.session_id} is already in use.")
            manager.new_session(session_id=options.session_id)
        return ChosenSession(manager, resumed=False)
    if options.fork_session:
        previous = SessionManager.open(source).session_id
        forked = SessionManager.fork_from(source, cwd)
        return ChosenSession(forked, resumed=True, forked_from=previous)
    return ChosenSession(SessionManager.open(source), resumed=True)
