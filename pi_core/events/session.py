"""Events about the session's life: start, switch, fork, compaction, tree navigation, shutdown."""

from typing import Any, Literal

from pydantic import Field

from pi_core.abort import AbortSignal
from pi_core.compaction.types import CompactionPreparation, CompactionResult
from pi_core.messages.base import StrictWireModel, WireModel
from pi_core.model_defaults import empty_list
from pi_core.session.entries import BranchSummaryEntry, CompactionEntry, SessionEntry


class ResourcesDiscoverEvent(WireModel):
    """Plugins may add skill, prompt-template and theme paths (after session_start, on reload)."""

    type: Literal["resources_discover"] = "resources_discover"
    cwd: str
    reason: Literal["startup", "reload"]


class ResourcesDiscoverResult(StrictWireModel):
    """Extra resource paths a plugin contributes."""

    skill_paths: list[str] = Field(default_factory=empty_list)
    prompt_paths: list[str] = Field(default_factory=empty_list)
    theme_paths: list[str] = Field(default_factory=empty_list)


class SessionStartEvent(WireModel):
    """A session was started, loaded or reloaded."""

    type: Literal["session_start"] = "session_start"
    reason: Literal["startup", "reload", "new", "resume", "fork"] = "startup"
    previous_session_file: str | None = None


class SessionBeforeSwitchEvent(WireModel):
    """About to start a new session or resume another; cancellable."""

    type: Literal["session_before_switch"] = "session_before_switch"
    reason: Literal["new", "resume"]
    target_session_file: str | None = None


class SessionBeforeSwitchResult(StrictWireModel):
    """Return `cancel=True` to stay in the current session."""

    cancel: bool = False


class SessionSwitchEvent(WireModel):
    """The session was switched (new or resumed)."""

    type: Literal["session_switch"] = "session_switch"
    reason: Literal["new", "resume"]
    previous_session_file: str | None = None


class SessionBeforeForkEvent(WireModel):
    """About to fork the session at an entry; cancellable."""

    type: Literal["session_before_fork"] = "session_before_fork"
    entry_id: str
    position: Literal["before", "at"] = "before"


class SessionBeforeForkResult(StrictWireModel):
    """Return `cancel=True` to stop the fork."""

    cancel: bool = False
    skip_conversation_restore: bool = False


class SessionForkEvent(WireModel):
    """The session was forked into a new file."""

    type: Literal["session_fork"] = "session_fork"
    previous_session_file: str | None = None


class SessionBeforeCompactEvent(WireModel):
    """About to compact; a plugin may cancel it or supply the compaction itself."""

    type: Literal["session_before_compact"] = "session_before_compact"
    preparation: CompactionPreparation
    branch_entries: list[SessionEntry] = Field(default_factory=empty_list)
    custom_instructions: str | None = None
    signal: AbortSignal = Field(default_factory=AbortSignal, exclude=True)
    earlier_result: "SessionBeforeCompactResult | None" = Field(default=None, exclude=True)
    """What the impls that ran before this one answered (set by the dispatcher); a default
    summarizer (a `trylast` impl) stands aside when it already holds a compaction."""


class SessionBeforeCompactResult(StrictWireModel):
    """`cancel=True` stops compaction; `compaction` provides the summary to store."""

    cancel: bool = False
    compaction: CompactionResult | None = None
    from_hook: bool = True
    """False marks pi's standard summary (the default compaction plugin): pi then carries the
    summary's file lists forward into later compactions, as it does for its own."""
    error: str | None = None
    """The summary could not be written: compaction fails with this message, nothing is stored."""


class SessionCompactEvent(WireModel):
    """A compaction entry was appended."""

    type: Literal["session_compact"] = "session_compact"
    compaction_entry: CompactionEntry
    from_extension: bool = False


class SessionShutdownEvent(WireModel):
    """The runtime is being torn down: quit, reload or session replacement."""

    type: Literal["session_shutdown"] = "session_shutdown"
    reason: Literal["quit", "reload", "new", "resume", "fork"] = "quit"
    target_session_file: str | None = None


class TreePreparation(WireModel):
    """What navigating the tree would leave behind, for a branch summary."""

    target_id: str
    old_leaf_id: str | None = None
    common_ancestor_id: str | None = None
    entries_to_summarize: list[SessionEntry] = Field(default_factory=empty_list)
    user_wants_summary: bool = False
    custom_instructions: str | None = None
    replace_instructions: bool | None = None
    label: str | None = None
    reserve_tokens: int = 16_384
    """`branchSummary.reserveTokens`: the summary's input budget is the context window minus it."""


class SessionBeforeTreeEvent(WireModel):
    """About to move the leaf in the session tree; cancellable, or supply a summary."""

    type: Literal["session_before_tree"] = "session_before_tree"
    preparation: TreePreparation
    signal: AbortSignal = Field(default_factory=AbortSignal, exclude=True)
    earlier_result: "SessionBeforeTreeResult | None" = Field(default=None, exclude=True)
    """What the impls that ran before this one answered (set by the dispatcher): a default
    summarizer stands aside when it holds a summary and honours its instruction overrides."""


class BranchSummary(StrictWireModel):
    """A branch summary a plugin wrote."""

    summary: str
    details: Any = None


class SessionBeforeTreeResult(StrictWireModel):
    """Cancel the navigation, provide the summary, or override its instructions and label."""

    cancel: bool = False
    summary: BranchSummary | None = None
    custom_instructions: str | None = None
    replace_instructions: bool | None = None
    label: str | None = None
    from_hook: bool = True
    """False marks pi's standard branch summary (the default plugin): later summaries carry its
    file lists forward, as pi does for its own."""
    error: str | None = None
    """The summary could not be written: the navigation fails with this message."""


class SessionTreeEvent(WireModel):
    """The leaf moved in the session tree."""

    type: Literal["session_tree"] = "session_tree"
    new_leaf_id: str | None
    old_leaf_id: str | None
    summary_entry: BranchSummaryEntry | None = None
    from_extension: bool | None = None
