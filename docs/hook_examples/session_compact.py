"""Tell the user how many tokens the context held before it was compacted."""

from pi_core import ExtensionContext, hookimpl
from pi_core.events import SessionCompactEvent


@hookimpl
def session_compact(event: SessionCompactEvent, ctx: ExtensionContext) -> None:
    tokens = event.compaction_entry.tokens_before
    ctx.ui.notify(f"compacted {tokens} tokens into a summary")
