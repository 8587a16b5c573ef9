"""Everything a summarizer needs to compact a branch, computed without calling an LLM."""

from __future__ import annotations

from collections.abc import Sequence

from pi_core.compaction.cut_point import find_cut_point
from pi_core.compaction.entry_messages import context_messages, message_for_compaction
from pi_core.compaction.file_ops import add_summary_details, extract_file_ops_from_message
from pi_core.compaction.tokens import CompactionThresholds, estimate_context_tokens
from pi_core.compaction.types import CompactionPreparation, CompactionSettings, FileOperations
from pi_core.messages.agent import AgentMessage
from pi_core.session.entries import CompactionEntry, SessionEntry


def _messages(entries: Sequence[SessionEntry], start: int, end: int) -> list[AgentMessage]:
    messages = []
    for entry in entries[start:end]:
        message = message_for_compaction(entry)
        if message is not None:
            messages.append(message)
    return messages


def _settings(settings: CompactionThresholds) -> CompactionSettings:
    if isinstance(settings, CompactionSettings):
        return settings
    return CompactionSettings(
        enabled=settings.enabled,
        reserve_tokens=settings.reserve_tokens,
        keep_recent_tokens=settings.keep_recent_tokens,
    )


def prepare_compaction(
    path_entries: Sequence[SessionEntry], settings: CompactionThresholds
) -> CompactionPreparation | None:
    """Decide what to summarize and what to keep on a branch (root first); None when the branch
    is empty, already ends with a compaction, or its first kept entry has no id."""
    if path_entries and isinstance(path_entries[-1], CompactionEntry):
        return None

    previous: CompactionEntry | None = None
    previous_index = -1
    for index in range(len(path_entries) - 1, -1, -1):
        entry = path_entries[index]
        if isinstance(entry, CompactionEntry):
            previous, previous_index = entry, index
            break

    start = 0
    if previous is not None:
        kept_from = next(
            (i for i, e in enumerate(path_entries) if e.id == previous.first_kept_entry_id), -1
        )
        start = kept_from if kept_from >= 0 else previous_index + 1
    end = len(path_entries)

    tokens_before = estimate_context_tokens(context_messages(path_entries)).tokens
    cut = find_cut_point(path_entries, start, end, settings.keep_recent_tokens)
    if cut.first_kept_entry_index >= end or not path_entries[cut.first_kept_entry_index].id:
        return None

    history_end = cut.turn_start_index if cut.is_split_turn else cut.first_kept_entry_index
    to_summarize = _messages(path_entries, start, history_end)
    turn_prefix = (
        _messages(path_entries, cut.turn_start_index, cut.first_kept_entry_index)
        if cut.is_split_turn
        else []
    )

    file_ops = FileOperations()
    if previous is not None and not previous.from_hook:
        add_summary_details(previous.details, file_ops)
    for message in (*to_summarize, *turn_prefix):
        extract_file_ops_from_message(message, file_ops)

    return CompactionPreparation(
        first_kept_entry_id=path_entries[cut.first_kept_entry_index].id,
        messages_to_summarize=to_summarize,
        turn_prefix_messages=turn_prefix,
        is_split_turn=cut.is_split_turn,
        tokens_before=tokens_before,
        previous_summary=previous.summary if previous is not None else None,
        file_ops=file_ops,
        settings=_settings(settings),
    )
