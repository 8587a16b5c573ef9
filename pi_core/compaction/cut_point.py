"""Where to cut a session's history: keep roughly `keep_recent_tokens` of the newest messages.

A cut never lands on a tool result (it must stay with the tool call before it). When the cut
lands inside a turn (after the user message that started it), the turn is split: its beginning
is summarized on its own, its end is kept.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from typing import NamedTuple

from pi_core.compaction.tokens import estimate_tokens
from pi_core.session.entries import (
    BranchSummaryEntry,
    CompactionEntry,
    CustomMessageEntry,
    SessionEntry,
    SessionMessageEntry,
)

_CUTTABLE_ROLES = frozenset(
    ("user", "assistant", "bashExecution", "custom", "branchSummary", "compactionSummary")
)
_TURN_START_ROLES = frozenset(("user", "bashExecution"))


class CutPoint(NamedTuple):
    """The first entry kept and, for a split turn, the entry that started that turn (else -1)."""

    first_kept_entry_index: int
    turn_start_index: int
    is_split_turn: bool


def find_valid_cut_points(entries: Sequence[SessionEntry], start: int, end: int) -> list[int]:
    """Return the indices in [start, end) where history may be cut: any message but a tool
    result, and branch summary or custom message entries."""
    points = []
    for index in range(start, end):
        entry = entries[index]
        if isinstance(entry, SessionMessageEntry):
            if entry.message.role in _CUTTABLE_ROLES:
                points.append(index)
        elif isinstance(entry, BranchSummaryEntry | CustomMessageEntry):
            points.append(index)
    return points


def find_turn_start_index(entries: Sequence[SessionEntry], entry_index: int, start: int) -> int:
    """Return the index of the entry that started the turn holding `entry_index` (a user or bash
    message, a branch summary or a custom message), or -1 if there is none from `start` on."""
    for index in range(entry_index, start - 1, -1):
        entry = entries[index]
        if isinstance(entry, BranchSummaryEntry | CustomMessageEntry):
            return index
        if isinstance(entry, SessionMessageEntry) and entry.message.role in _TURN_START_ROLES:
            return index
    return -1


def find_cut_point(
    entries: Sequence[SessionEntry], start: int, end: int, keep_recent_tokens: int
) -> CutPoint:
    """Walk back from `end` adding message estimates; cut at the first valid point at or after
    the message that reaches `keep_recent_tokens` (keep everything from the first if none)."""
    points = find_valid_cut_points(entries, start, end)
    if not points:
        return CutPoint(start, -1, False)

    cut = points[0]
    accumulated = 0
    for index in range(end - 1, start - 1, -1):
        entry = entries[index]
        if not isinstance(entry, SessionMessageEntry):
            continue
        accumulated += estimate_tokens(entry.message)
        if accumulated >= keep_recent_tokens:
            at = bisect_left(points, index)
            if at < len(points):
                cut = points[at]
            break

    # keep the non-message entries (model or thinking changes, labels…) just before the cut
    while cut > start:
        previous = entries[cut - 1]
        if isinstance(previous, CompactionEntry | SessionMessageEntry):
            break
        cut -= 1

    cut_entry = entries[cut]
    cuts_at_user = isinstance(cut_entry, SessionMessageEntry) and cut_entry.message.role == "user"
    turn_start = -1 if cuts_at_user else find_turn_start_index(entries, cut, start)
    return CutPoint(cut, turn_start, not cuts_at_user and turn_start != -1)
