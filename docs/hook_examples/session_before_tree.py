"""Summarise an abandoned branch cheaply, by listing its user prompts instead of asking the LLM."""

from pi_core import UserMessage, hookimpl
from pi_core.events import BranchSummary, SessionBeforeTreeEvent, SessionBeforeTreeResult


@hookimpl
def session_before_tree(event: SessionBeforeTreeEvent) -> SessionBeforeTreeResult | None:
    if not event.preparation.user_wants_summary:
        return None
    prompts = [
        message.content
        for entry in event.preparation.entries_to_summarize
        if isinstance(message := getattr(entry, "message", None), UserMessage)
        and isinstance(message.content, str)
    ]
    text = "Abandoned branch; the user asked:\n" + "\n".join(f"- {p}" for p in prompts)
    return SessionBeforeTreeResult(summary=BranchSummary(summary=text))
