"""The hooks: the default `session_before_compact` and `session_before_tree` impls, both
`trylast`, so a compaction or summary any other plugin provides wins."""

from __future__ import annotations

from pi_core import ExtensionContext, hookimpl
from pi_core.abort import AbortSignal
from pi_core.events import (
    SessionBeforeCompactEvent,
    SessionBeforeCompactResult,
    SessionBeforeTreeEvent,
    SessionBeforeTreeResult,
)
from pi_plugin_compaction.branch import summarize_branch
from pi_plugin_compaction.compact import summarize_compaction
from pi_plugin_compaction.llm import Summarizer, SummaryAborted


def _summarizer(ctx: ExtensionContext, signal: AbortSignal, thinking: bool) -> Summarizer:
    model = ctx.model
    if model is None:
        raise RuntimeError("No model selected")
    registry = ctx.model_registry
    if registry is None:
        raise RuntimeError("No model registry")
    level = ctx.get_thinking_level() if thinking else None
    return Summarizer(model, registry, signal, level)


@hookimpl(trylast=True)
async def session_before_compact(
    event: SessionBeforeCompactEvent, ctx: ExtensionContext
) -> SessionBeforeCompactResult | None:
    """Summarize the prepared history with the session's model (unless a plugin already did)."""
    earlier = event.earlier_result
    if earlier is not None and earlier.compaction is not None:
        return None
    try:
        summarizer = _summarizer(ctx, event.signal, thinking=True)
        compaction = await summarize_compaction(
            event.preparation, summarizer, event.custom_instructions
        )
    except SummaryAborted:
        return SessionBeforeCompactResult(cancel=True)
    except Exception as error:
        if event.signal.aborted:
            return SessionBeforeCompactResult(cancel=True)
        return SessionBeforeCompactResult(error=str(error) or type(error).__name__)
    return SessionBeforeCompactResult(compaction=compaction, from_hook=False)


@hookimpl(trylast=True)
async def session_before_tree(
    event: SessionBeforeTreeEvent, ctx: ExtensionContext
) -> SessionBeforeTreeResult | None:
    """Summarize the branch being left when the user asked for it (unless a plugin already did)."""
    preparation = event.preparation
    earlier = event.earlier_result or SessionBeforeTreeResult()
    if earlier.summary is not None or not preparation.user_wants_summary:
        return None
    if not preparation.entries_to_summarize:
        return None
    custom = preparation.custom_instructions
    if earlier.custom_instructions is not None:
        custom = earlier.custom_instructions
    replace = preparation.replace_instructions
    if earlier.replace_instructions is not None:
        replace = earlier.replace_instructions
    try:
        summarizer = _summarizer(ctx, event.signal, thinking=False)
        summary = await summarize_branch(preparation, summarizer, custom, replace)
    except SummaryAborted:
        return earlier.model_copy(update={"cancel": True})
    except Exception as error:
        if event.signal.aborted:
            return earlier.model_copy(update={"cancel": True})
        return earlier.model_copy(update={"error": str(error) or type(error).__name__})
    return earlier.model_copy(update={"summary": summary, "from_hook": False})
