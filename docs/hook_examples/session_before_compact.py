"""Never compact a short conversation: cancel while the branch holds fewer than 20 entries."""

from pi_core import hookimpl
from pi_core.events import SessionBeforeCompactEvent, SessionBeforeCompactResult

MIN_ENTRIES = 20


@hookimpl
def session_before_compact(event: SessionBeforeCompactEvent) -> SessionBeforeCompactResult | None:
    if len(event.branch_entries) < MIN_ENTRIES:
        return SessionBeforeCompactResult(cancel=True)
    return None  # let the default compaction (or another plugin's) run
