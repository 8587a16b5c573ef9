"""What to summarize when tree navigation leaves a branch (no LLM: the summary is a plugin's)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple, Protocol

from pi_core.compaction.entry_messages import message_of_entry
from pi_core.compaction.file_ops import add_summary_details, extract_file_ops_from_message
from pi_core.compaction.tokens import estimate_tokens
from pi_core.compaction.types import FileOperations
from pi_core.messages.agent import AgentMessage
from pi_core.messages.llm import ToolResultMessage
from pi_core.session.entries import BranchSummaryEntry, CompactionEntry, SessionEntry


class SessionTree(Protocol):
    """The read-only part of a session store that branch collection needs."""

    def get_branch(self, from_id: str | None = None) -> list[SessionEntry]:
        """Return the entries from the root to `from_id`."""
        ...

    def get_entry(self, entry_id: str) -> SessionEntry | None:
        """Return an entry by id."""
        ...


class BranchEntries(NamedTuple):
    """The entries of the branch being left (oldest first) and where it meets the target."""

    entries: list[SessionEntry]
    common_ancestor_id: str | None


class BranchPreparation(NamedTuple):
    """The messages that fit the budget (oldest first), the files touched, and their tokens."""

    messages: list[AgentMessage]
    file_ops: FileOperations
    total_tokens: int


def collect_entries_for_branch_summary(
    session: SessionTree, old_leaf_id: str | None, target_id: str
) -> BranchEntries:
    """Return the entries from the common ancestor of the old leaf and the target (exclusive) to
    the old leaf, oldest first; compactions on the way are included."""
    if not old_leaf_id:
        return BranchEntries([], None)
    old_path = {entry.id for entry in session.get_branch(old_leaf_id)}
    common: str | None = None
    for entry in reversed(session.get_branch(target_id)):
        if entry.id in old_path:
            common = entry.id
            break
    entries: list[SessionEntry] = []
    current: str | None = old_leaf_id
    while current and current != common:
        found = session.get_entry(current)
        if found is None:
            break
        entries.append(found)
        current = found.parent_id
    entries.reverse()
    return BranchEntries(entries, common)


def _branch_message(entry: SessionEntry) -> AgentMessage | None:
    message = message_of_entry(entry)
    if isinstance(message, ToolResultMessage):
        return None  # the tool call in the assistant message carries what matters
    return message


def prepare_branch_entries(
    entries: Sequence[SessionEntry], token_budget: int = 0
) -> BranchPreparation:
    """Keep the newest messages of a branch within `token_budget` (0: no limit), and collect its
    file operations, including those recorded by branch summaries inside it."""
    file_ops = FileOperations()
    for entry in entries:
        if isinstance(entry, BranchSummaryEntry) and not entry.from_hook:
            add_summary_details(entry.details, file_ops)

    messages: list[AgentMessage] = []
    total = 0
    for entry in reversed(entries):
        message = _branch_message(entry)
        if message is None:
            continue
        extract_file_ops_from_message(message, file_ops)
        tokens = estimate_tokens(message)
        if token_budget > 0 and total + tokens > token_budget:
            # a summary is worth squeezing in while the budget is not nearly spent
            summary = isinstance(entry, CompactionEntry | BranchSummaryEntry)
            if summary and total < token_budget * 0.9:
                messages.append(message)
                total += tokens
            break
        messages.append(message)
        total += tokens
    messages.reverse()
    return BranchPreparation(messages, file_ops, total)
