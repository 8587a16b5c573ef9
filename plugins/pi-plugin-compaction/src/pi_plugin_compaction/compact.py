"""The default compaction: summarize what the core prepared, as pi 0.73.1 does.

The history (and, for a split turn, the beginning of the cut turn) goes to the model as a
serialized transcript; the answer, the joined turn summary and the file lists make the summary.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from pi_core.compaction import (
    CompactionPreparation,
    CompactionResult,
    compute_file_lists,
    format_file_operations,
)
from pi_core.messages import AgentMessage
from pi_plugin_compaction.llm import Summarizer, SummaryFailed
from pi_plugin_compaction.prompts import (
    NO_PRIOR_HISTORY,
    SPLIT_TURN_JOIN,
    SUMMARY_PROMPT,
    TURN_PREFIX_PROMPT,
    UPDATE_PROMPT,
)
from pi_plugin_compaction.serialize import serialize_conversation

HISTORY_SHARE = 0.8
"""The history summary may use this share of `compaction.reserveTokens` as output tokens."""
TURN_PREFIX_SHARE = 0.5
"""The turn-prefix summary may use this share."""


def history_prompt(
    messages: Sequence[AgentMessage],
    previous_summary: str | None = None,
    custom_instructions: str | None = None,
) -> str:
    """Return the user message asking for a new summary, or an update of `previous_summary`."""
    text = f"<conversation>\n{serialize_conversation(messages)}\n</conversation>\n\n"
    if previous_summary:
        text += f"<previous-summary>\n{previous_summary}\n</previous-summary>\n\n"
    text += UPDATE_PROMPT if previous_summary else SUMMARY_PROMPT
    if custom_instructions:
        text += f"\n\nAdditional focus: {custom_instructions}"
    return text


def turn_prefix_prompt(messages: Sequence[AgentMessage]) -> str:
    """Return the user message asking for a summary of a split turn's beginning."""
    return (
        f"<conversation>\n{serialize_conversation(messages)}\n</conversation>\n\n"
        + TURN_PREFIX_PROMPT
    )


async def _history(
    summarizer: Summarizer, preparation: CompactionPreparation, custom: str | None
) -> str:
    prompt = history_prompt(preparation.messages_to_summarize, preparation.previous_summary, custom)
    max_tokens = int(HISTORY_SHARE * preparation.settings.reserve_tokens)
    try:
        return await summarizer.complete(prompt, max_tokens)
    except SummaryFailed as error:
        raise SummaryFailed(f"Summarization failed: {error}") from error


async def _turn_prefix(summarizer: Summarizer, preparation: CompactionPreparation) -> str:
    prompt = turn_prefix_prompt(preparation.turn_prefix_messages)
    max_tokens = int(TURN_PREFIX_SHARE * preparation.settings.reserve_tokens)
    try:
        return await summarizer.complete(prompt, max_tokens)
    except SummaryFailed as error:
        raise SummaryFailed(f"Turn prefix summarization failed: {error}") from error


async def _split_turn(
    summarizer: Summarizer, preparation: CompactionPreparation, custom: str | None
) -> str:
    async def history() -> str:
        if not preparation.messages_to_summarize:
            return NO_PRIOR_HISTORY
        return await _history(summarizer, preparation, custom)

    try:
        async with asyncio.TaskGroup() as group:
            history_task = group.create_task(history())
            prefix_task = group.create_task(_turn_prefix(summarizer, preparation))
    except BaseExceptionGroup as group_error:
        raise group_error.exceptions[0] from None
    return history_task.result() + SPLIT_TURN_JOIN + prefix_task.result()


async def summarize_compaction(
    preparation: CompactionPreparation,
    summarizer: Summarizer,
    custom_instructions: str | None = None,
) -> CompactionResult:
    """Write the summary of a prepared compaction; raise SummaryFailed or SummaryAborted."""
    if preparation.is_split_turn and preparation.turn_prefix_messages:
        summary = await _split_turn(summarizer, preparation, custom_instructions)
    else:
        summary = await _history(summarizer, preparation, custom_instructions)
    files = compute_file_lists(preparation.file_ops)
    summary += format_file_operations(files.read_files, files.modified_files)
    return CompactionResult(
        summary=summary,
        first_kept_entry_id=preparation.first_kept_entry_id,
        tokens_before=preparation.tokens_before,
        details=files.to_details(),
    )
