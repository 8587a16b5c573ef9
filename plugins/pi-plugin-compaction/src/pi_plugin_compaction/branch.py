"""The default branch summary, written when the user leaves a branch of the session tree."""

from __future__ import annotations

from pi_core.compaction import compute_file_lists, format_file_operations, prepare_branch_entries
from pi_core.events import BranchSummary, TreePreparation
from pi_plugin_compaction.llm import Summarizer
from pi_plugin_compaction.prompts import BRANCH_PROMPT, BRANCH_SUMMARY_PREAMBLE, NO_BRANCH_CONTENT
from pi_plugin_compaction.serialize import serialize_conversation

BRANCH_MAX_TOKENS = 2_048
DEFAULT_CONTEXT_WINDOW = 128_000
_NO_FILES: dict[str, list[str]] = {"readFiles": [], "modifiedFiles": []}


def branch_instructions(custom: str | None, replace: bool | None) -> str:
    """Return the request's instructions: ours, ours plus a focus, or the caller's alone."""
    if custom and replace:
        return custom
    if custom:
        return f"{BRANCH_PROMPT}\n\nAdditional focus: {custom}"
    return BRANCH_PROMPT


async def summarize_branch(
    preparation: TreePreparation,
    summarizer: Summarizer,
    custom_instructions: str | None = None,
    replace_instructions: bool | None = None,
) -> BranchSummary:
    """Summarize the newest entries of the branch being left that fit the budget; raise
    SummaryFailed or SummaryAborted."""
    window = summarizer.model.context_window or DEFAULT_CONTEXT_WINDOW
    budget = window - preparation.reserve_tokens
    prepared = prepare_branch_entries(preparation.entries_to_summarize, budget)
    if not prepared.messages:
        return BranchSummary(summary=NO_BRANCH_CONTENT, details=_NO_FILES)
    files = compute_file_lists(prepared.file_ops)
    prompt = (
        f"<conversation>\n{serialize_conversation(prepared.messages)}\n</conversation>\n\n"
        + branch_instructions(custom_instructions, replace_instructions)
    )
    text = await summarizer.complete(prompt, BRANCH_MAX_TOKENS, reasoning=False)
    summary = BRANCH_SUMMARY_PREAMBLE + text
    summary += format_file_operations(files.read_files, files.modified_files)
    return BranchSummary(summary=summary, details=files.to_details())
