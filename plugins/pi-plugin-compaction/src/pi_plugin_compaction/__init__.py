"""pi's default compaction and branch summaries: the history is serialized as a transcript and
an LLM writes a structured summary of it (see docs/compaction.md)."""

from pi_plugin_compaction.branch import summarize_branch
from pi_plugin_compaction.compact import summarize_compaction
from pi_plugin_compaction.llm import SummaryAborted, SummaryFailed
from pi_plugin_compaction.serialize import serialize_conversation

__all__ = [
    "SummaryAborted",
    "SummaryFailed",
    "serialize_conversation",
    "summarize_branch",
    "summarize_compaction",
]
