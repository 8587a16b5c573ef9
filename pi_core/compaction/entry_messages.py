"""Session entries as the messages compaction works on, and the LLM context of a path of entries."""

from __future__ import annotations

from collections.abc import Sequence

from pi_core.messages.agent import (
    AgentMessage,
    BranchSummaryMessage,
    CompactionSummaryMessage,
    CustomMessage,
)
from pi_core.session.entries import (
    BranchSummaryEntry,
    CompactionEntry,
    CustomMessageEntry,
    SessionEntry,
    SessionMessageEntry,
)
from pi_core.session.ids import iso_to_ms


def custom_message_of(entry: CustomMessageEntry) -> CustomMessage:
    """Return the custom message a `custom_message` entry puts into the context."""
    return CustomMessage(
        custom_type=entry.custom_type,
        content=entry.content,
        display=entry.display,
        details=entry.details,
        timestamp=iso_to_ms(entry.timestamp),
    )


def branch_summary_message_of(entry: BranchSummaryEntry) -> BranchSummaryMessage:
    """Return the branch summary message of a `branch_summary` entry."""
    return BranchSummaryMessage(
        summary=entry.summary, from_id=entry.from_id, timestamp=iso_to_ms(entry.timestamp)
    )


def compaction_summary_message_of(entry: CompactionEntry) -> CompactionSummaryMessage:
    """Return the summary message that stands in for the history a compaction replaced."""
    return CompactionSummaryMessage(
        summary=entry.summary,
        tokens_before=entry.tokens_before,
        timestamp=iso_to_ms(entry.timestamp),
    )


def message_of_entry(entry: SessionEntry) -> AgentMessage | None:
    """Return the message an entry contributes (compactions give their summary), or None."""
    if isinstance(entry, SessionMessageEntry):
        return entry.message
    if isinstance(entry, CustomMessageEntry):
        return custom_message_of(entry)
    if isinstance(entry, BranchSummaryEntry):
        return branch_summary_message_of(entry)
    if isinstance(entry, CompactionEntry):
        return compaction_summary_message_of(entry)
    return None


def message_for_compaction(entry: SessionEntry) -> AgentMessage | None:
    """Like `message_of_entry`, but a compaction entry contributes nothing (its summary is
    passed on separately as the previous summary)."""
    if isinstance(entry, CompactionEntry):
        return None
    return message_of_entry(entry)


def _context_message(entry: SessionEntry) -> AgentMessage | None:
    if isinstance(entry, BranchSummaryEntry) and not entry.summary:
        return None  # an empty branch summary is not shown to the LLM
    if isinstance(entry, CompactionEntry):
        return None
    return message_of_entry(entry)


def context_messages(entries: Sequence[SessionEntry]) -> list[AgentMessage]:
    """Return the LLM context at the last of `entries` (walking its parents among `entries`)."""
    if not entries:
        return []
    by_id = {entry.id: entry for entry in entries}
    path: list[SessionEntry] = []
    seen: set[str] = set()
    current: SessionEntry | None = entries[-1]
    while current is not None and current.id not in seen:
        seen.add(current.id)
        path.append(current)
        current = by_id.get(current.parent_id) if current.parent_id else None
    path.reverse()

    compaction_index = -1
    for index, entry in enumerate(path):
        if isinstance(entry, CompactionEntry):
            compaction_index = index
    if compaction_index < 0:
        kept: Sequence[SessionEntry] = path
        messages: list[AgentMessage] = []
    else:
        compaction = path[compaction_index]
        assert isinstance(compaction, CompactionEntry)
        messages = [compaction_summary_message_of(compaction)]
        start = next(
            (i for i in range(compaction_index) if path[i].id == compaction.first_kept_entry_id),
            compaction_index,
        )
        kept = path[start:compaction_index] + path[compaction_index + 1 :]
    for entry in kept:
        message = _context_message(entry)
        if message is not None:
            messages.append(message)
    return messages
