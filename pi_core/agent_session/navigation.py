"""New session, switch, fork and tree navigation, each behind a `session_before_*` that can cancel.

As in pi 0.73.1, leaving a session tells plugins `session_shutdown` (with the reason) and arriving
tells them `session_start`; `session_switch` / `session_fork` follow for plugins that use them.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from pi_core.abort import AbortController
from pi_core.agent.agent import Agent
from pi_core.agent_session.relocate import Relocation, session_folder
from pi_core.agent_session.session_controls import SessionControls
from pi_core.ai.message_cache import forget_conversations
from pi_core.ai.model_registry import ModelRegistry
from pi_core.events.session import (
    SessionBeforeForkEvent,
    SessionBeforeSwitchEvent,
    SessionBeforeTreeEvent,
    SessionForkEvent,
    SessionShutdownEvent,
    SessionStartEvent,
    SessionSwitchEvent,
    SessionTreeEvent,
    TreePreparation,
)
from pi_core.messages.llm import content_text
from pi_core.plugins.dispatch import HookDispatcher
from pi_core.resources.settings import SettingsManager
from pi_core.session.entries import BranchSummaryEntry, CustomMessageEntry, SessionMessageEntry
from pi_core.session.manager import SessionManager
from pi_core.session.missing_cwd import (
    MissingSessionCwdError,
    missing_cwd_of_file,
    stored_cwd,
)

NO_SUMMARIZER = (
    "No plugin provides branch summaries. Install pi-plugin-compaction "
    "(`pi install pi-plugin-compaction`) or any plugin that answers session_before_tree."
)


class Navigator:
    """Moves an AgentSession between session files and within one file's tree."""

    def __init__(
        self,
        *,
        agent: Agent,
        session_manager: SessionManager,
        settings: SettingsManager,
        model_registry: ModelRegistry,
        dispatcher: HookDispatcher,
        controls: SessionControls,
        clear_queues: Callable[[], None],
        cwd: str,
        relocate: Callable[[str], Relocation] | None = None,
    ) -> None:
        self._cwd = cwd  # where a session whose own folder is gone may continue
        self._relocate = relocate  # prepares a move to an opened session's own folder
        self._agent = agent
        self._session_manager = session_manager
        self._settings = settings
        self._model_registry = model_registry
        self._dispatcher = dispatcher
        self._controls = controls
        self._clear_queues = clear_queues
        self._summary_abort: AbortController | None = None

    @property
    def is_summarizing(self) -> bool:
        """Return whether a tree navigation is waiting for its branch summary."""
        return self._summary_abort is not None

    def abort_branch_summary(self) -> None:
        """Cancel a branch summary being written (the navigation is then cancelled)."""
        if self._summary_abort is not None:
            self._summary_abort.abort()

    async def new_session(
        self,
        parent_session: str | None = None,
        setup: Callable[[SessionManager], Any] | None = None,
    ) -> dict[str, Any]:
        """Start an empty session in the same folder (plugins may cancel)."""
        outcome = await self._dispatcher.emit(SessionBeforeSwitchEvent(reason="new"))
        if outcome is not None and outcome.cancel:
            return {"cancelled": True}
        previous = self._session_file()
        await self._leave("new")
        self._session_manager.new_session(parent_session=parent_session)
        self._reset_agent()
        if setup is not None:
            result = setup(self._session_manager)
            if hasattr(result, "__await__"):
                await result
            self._controls.reload_messages()
        await self._arrive("new", previous)
        await self._dispatcher.notify(
            "session_switch", SessionSwitchEvent(reason="new", previous_session_file=previous)
        )
        return {"cancelled": False}

    async def switch_session(self, path: str, in_cwd: bool = False) -> dict[str, Any]:
        """Open another session file and restore its model and thinking level.

        The session then works in the file's stored folder, as in pi (see relocate.py); when
        that folder's plugins fail to load, PluginLoadFailed is raised and nothing changes. A file
        whose stored folder is gone raises MissingSessionCwdError (nothing changes) unless
        `in_cwd`: then it goes on in this session's folder, its file left as it is.
        """
        target = Path(path).expanduser().resolve()  # a missing file: a new session there (pi)
        outcome = await self._dispatcher.emit(
            SessionBeforeSwitchEvent(reason="resume", target_session_file=str(target))
        )
        if outcome is not None and outcome.cancel:
            return {"cancelled": True}
        issue = missing_cwd_of_file(target, self._cwd)
        if issue is not None and not in_cwd:
            raise MissingSessionCwdError(issue)
        folder = self._cwd if issue is not None else session_folder(stored_cwd(target), self._cwd)
        move = None
        if self._relocate is not None and folder != self._cwd:
            move = self._relocate(folder)  # PluginLoadFailed: nothing changed
        previous = self._session_file()
        try:
            await self._leave("resume", str(target))
        except BaseException:
            if move is not None:
                move.abandon()
            raise
        # The session being left is let go before the next one is read, so the two are never
        # in memory at once; should the file be unusable, the transcript is rebuilt as it was.
        self._agent.state.messages = []
        forget_conversations()
        try:
            self._session_manager.switch_to(target)
        except BaseException:
            self._controls.reload_messages()
            if move is not None:
                move.abandon()
            raise
        self._session_manager.cwd = folder
        if move is not None:
            move.apply()
            self._cwd = folder
        self._reset_agent()
        await self.restore_model_and_thinking()
        await self._arrive("resume", previous)
        await self._dispatcher.notify(
            "session_switch", SessionSwitchEvent(reason="resume", previous_session_file=previous)
        )
        return {"cancelled": False}

    async def fork(self, entry_id: str, position: str = "before") -> dict[str, Any]:
        """Continue in a new file from before a user message (or at any entry with "at")."""
        manager = self._session_manager
        entry = manager.get_entry(entry_id)
        if entry is None:
            raise ValueError("Invalid entry ID for forking")
        selected_text: str | None = None
        if position == "at":
            target: str | None = entry.id
        else:
            if not (isinstance(entry, SessionMessageEntry) and entry.message.role == "user"):
                raise ValueError("Invalid entry ID for forking")
            target = entry.parent_id
            selected_text = content_text(entry.message.content)
        outcome = await self._dispatcher.emit(
            SessionBeforeForkEvent(entry_id=entry_id, position=position)
        )
        if outcome is not None and outcome.cancel:
            return {"cancelled": True}
        previous = self._session_file()
        await self._leave("fork")
        if target is None:
            manager.new_session(parent_session=previous)
        else:
            manager.create_branched_session(target)
        self._reset_agent()
        await self._arrive("fork", previous)
        await self._dispatcher.notify(
            "session_fork", SessionForkEvent(previous_session_file=previous)
        )
        return {"cancelled": False, "selected_text": selected_text}

    async def navigate_tree(
        self,
        target_id: str,
        *,
        summarize: bool = False,
        custom_instructions: str | None = None,
        replace_instructions: bool | None = None,
        label: str | None = None,
    ) -> dict[str, Any]:
        """Move the leaf within this file; a user message's text comes back for editing."""
        manager = self._session_manager
        old_leaf = manager.get_leaf_id()
        if target_id == old_leaf:
            return {"cancelled": False}
        target = manager.get_entry(target_id)
        if target is None:
            raise ValueError(f"Entry {target_id} not found")
        from pi_core.compaction.branch import collect_entries_for_branch_summary

        entries, common_ancestor = collect_entries_for_branch_summary(manager, old_leaf, target_id)
        preparation = TreePreparation(
            target_id=target_id,
            old_leaf_id=old_leaf,
            common_ancestor_id=common_ancestor,
            entries_to_summarize=entries,
            user_wants_summary=summarize,
            custom_instructions=custom_instructions,
            replace_instructions=replace_instructions,
            label=label,
            reserve_tokens=self._settings.get_branch_summary_settings().reserve_tokens,
        )
        self._summary_abort = AbortController()
        signal = self._summary_abort.signal
        try:
            outcome = await self._dispatcher.emit(
                SessionBeforeTreeEvent(preparation=preparation, signal=signal)
            )
        finally:
            self._summary_abort = None
        if signal.aborted:
            return {"cancelled": True, "aborted": True}
        if outcome is not None and outcome.cancel:
            return {"cancelled": True}
        if outcome is not None and outcome.error and summarize:
            raise RuntimeError(outcome.error)
        if outcome is not None and outcome.label is not None:
            label = outcome.label
        summary = outcome.summary if outcome is not None and summarize else None
        if summarize and entries and summary is None:
            raise RuntimeError(NO_SUMMARIZER)
        editor_text: str | None = None
        new_leaf: str | None
        if isinstance(target, SessionMessageEntry) and target.message.role == "user":
            new_leaf, editor_text = target.parent_id, content_text(target.message.content)
        elif isinstance(target, CustomMessageEntry):
            new_leaf, editor_text = target.parent_id, content_text(target.content)
        else:
            new_leaf = target_id
        summary_entry: BranchSummaryEntry | None = None
        if summary is not None:
            from_hook = outcome is None or outcome.from_hook
            summary_id = manager.branch_with_summary(
                new_leaf, summary.summary, summary.details, from_hook
            )
            found = manager.get_entry(summary_id)
            summary_entry = found if isinstance(found, BranchSummaryEntry) else None
            if label:
                manager.append_label_change(summary_id, label)
        elif new_leaf is None:
            manager.reset_leaf()
        else:
            manager.branch(new_leaf)
        if label and summary is None:
            manager.append_label_change(target_id, label)
        self._controls.reload_messages()
        await self._dispatcher.notify(
            "session_tree",
            SessionTreeEvent(
                new_leaf_id=manager.get_leaf_id(),
                old_leaf_id=old_leaf,
                summary_entry=summary_entry,
                from_extension=(outcome is None or outcome.from_hook) if summary else None,
            ),
        )
        return {"cancelled": False, "editor_text": editor_text, "summary_entry": summary_entry}

    # --- shared steps ---------------------------------------------------------------------

    async def _leave(self, reason: str, target: str | None = None) -> None:
        await self._controls.abort()
        await self._dispatcher.notify(
            "session_shutdown",
            SessionShutdownEvent(reason=reason, target_session_file=target),
        )

    async def _arrive(self, reason: str, previous: str | None) -> None:
        await self._dispatcher.notify(
            "session_start",
            SessionStartEvent(reason=reason, previous_session_file=previous),
        )

    def _reset_agent(self) -> None:
        self._agent.reset()
        self._clear_queues()  # a new session starts with empty queues
        self._controls.reload_messages()

    def _session_file(self) -> str | None:
        path = self._session_manager.session_file
        return str(path) if path is not None else None

    async def restore_model_and_thinking(self) -> None:
        """Use the model and thinking level the session file last recorded, when available."""
        context = self._session_manager.build_session_context()
        if context.model is not None:
            model = self._model_registry.find(context.model.provider, context.model.model_id)
            if model is not None and self._model_registry.has_credentials(model.provider):
                self._agent.state.model = model
        if context.thinking_level:
            self._agent.state.thinking_level = context.thinking_level
