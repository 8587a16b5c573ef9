"""Fork without restoring the conversation into the editor, and never fork at the first entry."""

from pi_core import hookimpl
from pi_core.events import SessionBeforeForkEvent, SessionBeforeForkResult

PROTECTED_ENTRY = "00000000"


@hookimpl
def session_before_fork(event: SessionBeforeForkEvent) -> SessionBeforeForkResult:
    if event.entry_id == PROTECTED_ENTRY:
        return SessionBeforeForkResult(cancel=True)
    return SessionBeforeForkResult(skip_conversation_restore=True)
