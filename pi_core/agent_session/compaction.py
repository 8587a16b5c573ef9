"""When to compact (by hand, over the threshold, after an overflow) and applying the result.

The summary itself comes from a plugin implementing `session_before_compact` (the default is
pi-plugin-compaction); the core only prepares what to summarize and records the outcome.
"""

from __future__ import annotations

import asyncio

from pi_core.abort import AbortController
from pi_core.agent.agent import Agent
from pi_core.agent_session.session_controls import SessionControls
from pi_core.agent_session.session_events import (
    CompactionEndEvent,
    CompactionReason,
    CompactionStartEvent,
)
from pi_core.ai.errors import is_context_overflow
from pi_core.compaction.entry_messages import message_of_entry
from pi_core.compaction.prepare import prepare_compaction
from pi_core.compaction.tokens import (
    calculate_context_tokens,
    estimate_context_tokens,
    get_latest_compaction_entry,
    should_compact,
)
from pi_core.compaction.types import CompactionResult
from pi_core.events.session import SessionBeforeCompactEvent, SessionCompactEvent
from pi_core.messages.llm import AssistantMessage
from pi_core.plugins.dispatch import HookDispatcher
from pi_core.resources.settings import SettingsManager
from pi_core.session.entries import CompactionEntry
from pi_core.session.ids import iso_to_ms
from pi_core.session.manager import SessionManager

NO_COMPACTOR = (
    "No plugin provides compaction. Install pi-plugin-compaction "
    "(`pi install pi-plugin-compaction`) or any plugin that answers session_before_compact "
    "with a summary."
)
NOTHING_TO_COMPACT = "Nothing to compact (session too small)"
OVERFLOW_GAVE_UP = (
    "Context overflow recovery failed after one compact-and-retry attempt. Try reducing context "
    "or switching to a larger-context model."
)


class CompactionCancelled(RuntimeError):
    """A plugin or the user cancelled the compaction."""


class CompactionController:
    """Runs compactions for an AgentSession and decides when automatic ones are due."""

    def __init__(
        self,
        *,
        agent: Agent,
        session_manager: SessionManager,
        settings: SettingsManager,
        dispatcher: HookDispatcher,
        controls: SessionControls,
    ) -> None:
        self._agent = agent
        self._session_manager = session_manager
        self._settings = settings
        self._dispatcher = dispatcher
        self._controls = controls
        self._emit = controls.emit
        self._abort: AbortController | None = None
        self.overflow_recovery_attempted = False

    @property
    def is_compacting(self) -> bool:
        """Return whether a compaction is running."""
        return self._abort is not None

    def abort(self) -> None:
        """Cancel a running compaction."""
        if self._abort is not None:
            self._abort.abort()

    # --- manual ---------------------------------------------------------------------------

    async def compact(self, custom_instructions: str | None = None) -> CompactionResult:
        """Compact now (after aborting any run); raise with a clear message if it cannot."""
        await self._controls.abort()
        self._emit(CompactionStartEvent(reason="manual"))
        try:
            result = await self._run("manual", custom_instructions, required=True)
        except BaseException as error:
            aborted = isinstance(error, CompactionCancelled | asyncio.CancelledError)
            self._emit(
                CompactionEndEvent(
                    reason="manual",
                    aborted=aborted,
                    error_message=None if aborted else f"Compaction failed: {error}",
                )
            )
            raise
        assert result is not None
        self._emit(CompactionEndEvent(reason="manual", result=result))
        return result

    # --- automatic ------------------------------------------------------------------------

    async def check(self, message: AssistantMessage, skip_aborted: bool = True) -> None:
        """After a run (or before a prompt): compact on overflow (then retry) or over threshold."""
        settings = self._settings.get_compaction_settings()
        if not settings.enabled or (skip_aborted and message.stop_reason == "aborted"):
            return
        model = self._agent.state.model
        window = model.context_window if model else 0
        same_model = model is not None and (message.provider, message.model) == (
            model.provider,
            model.id,
        )
        overflow = same_model and is_context_overflow(message, window)
        if not overflow:
            if message.stop_reason == "error":
                estimate = estimate_context_tokens(self._agent.state.messages)
                if estimate.last_usage_index is None:
                    return
                tokens = estimate.tokens
            else:
                tokens = calculate_context_tokens(message.usage)
            if not should_compact(tokens, window, settings):
                return
        # Only now read the branch (a walk over the whole session): most turns end above.
        latest = get_latest_compaction_entry(self._session_manager.get_branch())
        if latest is not None and message.timestamp <= iso_to_ms(latest.timestamp):
            return  # usage from before the last compaction says nothing about the context now
        if overflow:
            if self.overflow_recovery_attempted:
                self._emit(CompactionEndEvent(reason="overflow", error_message=OVERFLOW_GAVE_UP))
                return
            self.overflow_recovery_attempted = True
            self._controls.drop_trailing_error()
            await self._auto("overflow", will_retry=True)
            return
        await self._auto("threshold", will_retry=False)

    async def _auto(self, reason: CompactionReason, will_retry: bool) -> None:
        self._emit(CompactionStartEvent(reason=reason))
        try:
            result = await self._run(reason, None, required=False)
        except CompactionCancelled:
            self._emit(CompactionEndEvent(reason=reason, aborted=True))
            return
        except Exception as error:
            prefix = (
                "Context overflow recovery failed"
                if reason == "overflow"
                else "Auto-compaction failed"
            )
            self._emit(CompactionEndEvent(reason=reason, error_message=f"{prefix}: {error}"))
            return
        if result is None:
            self._emit(CompactionEndEvent(reason=reason))
            return
        self._emit(CompactionEndEvent(reason=reason, result=result, will_retry=will_retry))
        if will_retry:
            self._controls.drop_trailing_error()
            self._controls.schedule_continue()
        elif self._agent.has_queued_messages():
            self._controls.schedule_continue()

    # --- the work -------------------------------------------------------------------------

    async def _run(
        self, reason: CompactionReason, custom_instructions: str | None, required: bool
    ) -> CompactionResult | None:
        if self._agent.state.model is None:
            if required:
                raise RuntimeError("No model selected")
            return None
        branch = self._session_manager.get_branch()
        if not any(message_of_entry(entry) is not None for entry in branch):
            # pi would summarize an empty conversation here; there is nothing to keep or drop
            if required:
                raise RuntimeError(NOTHING_TO_COMPACT)
            return None
        settings = self._settings.get_compaction_settings()
        preparation = prepare_compaction(branch, settings)
        if preparation is None:
            if not required:
                return None
            if branch and isinstance(branch[-1], CompactionEntry):
                raise RuntimeError("Already compacted")
            raise RuntimeError(NOTHING_TO_COMPACT)
        self._abort = AbortController()
        signal = self._abort.signal
        try:
            outcome = await self._dispatcher.emit(
                SessionBeforeCompactEvent(
                    preparation=preparation,
                    branch_entries=branch,
                    custom_instructions=custom_instructions,
                    signal=signal,
                )
            )
            if signal.aborted or (outcome is not None and outcome.cancel):
                raise CompactionCancelled("Compaction cancelled")
            if outcome is not None and outcome.error:
                raise RuntimeError(outcome.error)
            if outcome is None or outcome.compaction is None:
                raise RuntimeError(NO_COMPACTOR)
            result: CompactionResult = outcome.compaction
            from_hook = outcome.from_hook
        finally:
            self._abort = None
        manager = self._session_manager
        entry_id = manager.append_compaction(
            result.summary,
            result.first_kept_entry_id,
            result.tokens_before,
            result.details,
            from_hook,
        )
        self._controls.reload_messages()
        entry = manager.get_entry(entry_id)
        if isinstance(entry, CompactionEntry):
            await self._dispatcher.notify(
                "session_compact",
                SessionCompactEvent(compaction_entry=entry, from_extension=from_hook),
            )
        return result
