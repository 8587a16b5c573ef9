"""Compaction preparation: token accounting, cut points, file operations, branch collection.

No LLM is called here; the summary comes from a plugin implementing `session_before_compact`
(and `session_before_tree` for branch summaries).
"""

from pi_core.compaction.branch import (
    BranchEntries,
    BranchPreparation,
    SessionTree,
    collect_entries_for_branch_summary,
    prepare_branch_entries,
)
from pi_core.compaction.cut_point import (
    CutPoint,
    find_cut_point,
    find_turn_start_index,
    find_valid_cut_points,
)
from pi_core.compaction.entry_messages import context_messages, message_of_entry
from pi_core.compaction.file_ops import (
    FileLists,
    compute_file_lists,
    extract_file_ops_from_message,
    format_file_operations,
)
from pi_core.compaction.prepare import prepare_compaction
from pi_core.compaction.tokens import (
    CompactionThresholds,
    ContextTokens,
    calculate_context_tokens,
    estimate_context_tokens,
    estimate_tokens,
    get_last_assistant_usage,
    get_latest_compaction_entry,
    js_length,
    should_compact,
)
from pi_core.compaction.types import (
    CompactionPreparation,
    CompactionResult,
    CompactionSettings,
    FileOperations,
)

__all__ = [
    "BranchEntries",
    "BranchPreparation",
    "CompactionPreparation",
    "CompactionResult",
    "CompactionSettings",
    "CompactionThresholds",
    "ContextTokens",
    "CutPoint",
    "FileLists",
    "FileOperations",
    "SessionTree",
    "calculate_context_tokens",
    "collect_entries_for_branch_summary",
    "compute_file_lists",
    "context_messages",
    "estimate_context_tokens",
    "estimate_tokens",
    "extract_file_ops_from_message",
    "find_cut_point",
    "find_turn_start_index",
    "find_valid_cut_points",
    "format_file_operations",
    "get_last_assistant_usage",
    "get_latest_compaction_entry",
    "js_length",
    "message_of_entry",
    "prepare_branch_entries",
    "prepare_compaction",
    "should_compact",
]
