"""Fork: a new session whose history ends at a chosen message of another (`session/fork` at the
last entry; `_pi/fork` at `entryId` or `messageIndex`). It runs pi's own fork (the REPL's
`/fork`, at the entry), so the new file names the old one as its parent."""

from __future__ import annotations

from typing import Any

from acp import RequestError

from pi_core import AgentSession
from pi_core.session import SessionMessageEntry

METHOD = "pi/fork"


def fork_point(session: AgentSession, params: dict[str, Any]) -> str:
    """The id of the entry the fork ends at: `entryId`, else the `messageIndex`-th message
    (from 0) of the session's current branch, else the branch's last entry."""
    manager = session.session_manager
    entry_id = params.get("entryId")
    index = params.get("messageIndex")
    if entry_id is not None:
        if not isinstance(entry_id, str) or manager.get_entry(entry_id) is None:
            raise RequestError.invalid_params({"message": f"no entry {entry_id!r}"})
        return entry_id
    if index is not None:
        messages = [e for e in manager.get_branch() if isinstance(e, SessionMessageEntry)]
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(messages):
            raise RequestError.invalid_params(
                {"message": f"messageIndex must be from 0 to {len(messages) - 1}"}
            )
        return messages[index].id
    leaf = manager.get_leaf_id()
    if leaf is None:
        raise RequestError.invalid_params({"message": "the session has nothing to fork yet"})
    return leaf


async def fork_at(session: AgentSession, params: dict[str, Any]) -> None:
    """Turn `session` (opened on the source's file) into the fork ending at the chosen entry."""
    outcome = await session.fork(fork_point(session, params), "at")
    if outcome.get("cancelled"):
        raise RequestError.invalid_params({"message": "a plugin cancelled the fork"})
