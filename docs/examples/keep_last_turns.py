"""An example compaction plugin: keep the last few turns verbatim and drop the rest, without
asking a model. Load it for one run with `pi -e docs/examples/keep_last_turns.py`, or copy it to
~/.pi/agent/extensions/ (see docs/compaction.md).

It answers `session_before_compact` as a plain impl, so it runs before the default
(pi-plugin-compaction's `trylast` impl), which then stands aside. With too few turns to drop
any it returns None and the default summary is written instead.
"""

from __future__ import annotations

import os
from typing import Any

from pi_core import UserMessage, hookimpl
from pi_core.events import (
    CompactionEntry,
    SessionBeforeCompactEvent,
    SessionEntry,
    SessionMessageEntry,
)
from pi_core.messages import content_text

KEEP_TURNS = int(os.environ.get("PI_KEEP_TURNS", "2"))
"""How many of the newest turns (a user message and what followed it) to keep."""


def _turn_starts(entries: list[SessionEntry]) -> list[tuple[str, str]]:
    """The user messages since the last compaction, as (entry id, first line): each starts a
    turn."""
    starts: list[tuple[str, str]] = []
    for entry in entries:
        if isinstance(entry, CompactionEntry):
            starts = []
        elif isinstance(entry, SessionMessageEntry) and isinstance(entry.message, UserMessage):
            first_line = (content_text(entry.message.content).splitlines() or [""])[0]
            starts.append((entry.id, first_line[:200]))
    return starts


@hookimpl
def session_before_compact(event: SessionBeforeCompactEvent) -> dict[str, Any] | None:
    """Keep the last KEEP_TURNS turns; the summary lists what the dropped turns asked."""
    starts = _turn_starts(event.branch_entries)
    if len(starts) <= KEEP_TURNS:
        return None
    dropped, (first_kept, _) = starts[:-KEEP_TURNS], starts[-KEEP_TURNS]
    asked = [line for _, line in dropped]
    summary = f"{len(dropped)} earlier turn(s) were dropped. They asked:\n" + "\n".join(
        f"- {line}" for line in asked
    )
    if event.preparation.previous_summary:
        summary = event.preparation.previous_summary + "\n\n" + summary
    return {
        "compaction": {
            "summary": summary,
            "firstKeptEntryId": first_kept,
            "tokensBefore": event.preparation.tokens_before,
            "details": {"droppedTurns": len(dropped)},
        }
    }
