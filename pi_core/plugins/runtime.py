"""The shared runtime behind every plugin context: unbound while loading, bound by the session."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn, Protocol, TypedDict, cast

from pi_core.plugins.errors import PluginActionError
from pi_core.plugins.event_bus import EventBus
from pi_core.plugins.ui import ExtensionUI, NoOpUI
from pi_core.tools.operations import ToolOperations

if TYPE_CHECKING:
    from pi_core.ai.model import Model
    from pi_core.ai.model_registry import ModelRegistry
    from pi_core.compaction.types import CompactionResult
    from pi_core.events import ToolCallEvent, ToolCallResult, ToolResultEvent, ToolResultPatch
    from pi_core.messages.agent import CustomMessage
    from pi_core.messages.content import ImageContent, TextContent
    from pi_core.resources.settings.manager import SettingsManager
    from pi_core.session.context import SessionContext
    from pi_core.session.entries import SessionEntry, SessionHeader
    from pi_core.session.manager import SessionManager, TreeNode


class ContextUsage(TypedDict):
    """How full the model's context window is (`tokens` and `percent` None when unknown)."""

    tokens: int | None
    contextWindow: int
    percent: float | None


ToolCallChain = Callable[["ToolCallEvent"], Awaitable["ToolCallResult | None"]]
"""A session's whole `tool_call` hook chain: the block that wins, or None."""
ToolResultChain = Callable[["ToolResultEvent"], Awaitable["ToolResultPatch | None"]]
"""A session's whole `tool_result` hook chain: the patch it ends with, or None."""

# What a session-control command reports: `{"cancelled": bool}`, plus details some add.
NavigationOutcome = dict[str, object]


class SessionReader(Protocol):
    """The session as plugins read it (`ctx.session`): everything to read, nothing to write."""

    cwd: str
    session_id: str
    session_file: Path | None
    session_dir: Path | None

    def get_session_file(self) -> str | None: ...
    def get_entries(self) -> list[SessionEntry]: ...
    def get_branch(self, from_id: str | None = None) -> list[SessionEntry]: ...
    def get_entry(self, entry_id: str) -> SessionEntry | None: ...
    def get_children(self, parent_id: str | None) -> list[SessionEntry]: ...
    def get_label(self, entry_id: str) -> str | None: ...
    def get_leaf_id(self) -> str | None: ...
    def get_leaf_entry(self) -> SessionEntry | None: ...
    def get_tree(self) -> list[TreeNode]: ...
    def get_header(self) -> SessionHeader: ...
    def get_session_name(self) -> str | None: ...
    def build_session_context(self) -> SessionContext: ...
    def is_persisted(self) -> bool: ...


class SessionActions(Protocol):
    """What a bound session does for `ctx` (implemented by agent_session/plugin_actions.py).

    Each method is what the `ExtensionContext` or `CommandContext` method of the same name does.
    """

    def get_model(self) -> Model | None: ...
    def is_idle(self) -> bool: ...
    def abort(self) -> None: ...
    def has_pending_messages(self) -> bool: ...
    def shutdown(self) -> None: ...
    def get_context_usage(self) -> ContextUsage | None: ...
    def compact(
        self,
        custom_instructions: str | None = None,
        *,
        on_complete: Callable[[CompactionResult], None] | None = None,
        on_error: Callable[[BaseException], None] | None = None,
    ) -> None: ...
    def get_system_prompt(self) -> str: ...
    def send_message(
        self,
        message: CustomMessage | dict[str, object],
        *,
        trigger_turn: bool = False,
        deliver_as: str | None = None,
    ) -> None: ...
    def send_user_message(
        self, content: str | Sequence[TextContent | ImageContent], *, deliver_as: str | None = None
    ) -> None: ...
    def append_entry(self, custom_type: str, data: object = None) -> None: ...
    def set_session_name(self, name: str) -> None: ...
    def get_session_name(self) -> str | None: ...
    def set_label(self, entry_id: str, label: str | None) -> None: ...
    def get_active_tools(self) -> list[str]: ...
    def get_all_tools(self) -> list[dict[str, object]]: ...
    def set_active_tools(self, names: list[str]) -> None: ...
    def register_tool(self, tool: object) -> None: ...
    def unregister_tool(self, name: str) -> None: ...
    def get_commands(self) -> list[dict[str, str]]: ...
    async def set_model(self, model: Model) -> bool: ...
    def get_thinking_level(self) -> str: ...
    def set_thinking_level(self, level: str) -> None: ...
    async def wait_for_idle(self) -> None: ...
    async def reload(self) -> None: ...


class SessionNavigation(Protocol):
    """Moving between sessions and within the tree, as a slash command may (`CommandContext`);
    implemented by agent_session/navigation.py's `Navigator`."""

    async def new_session(
        self,
        *,
        parent_session: str | None = None,
        setup: Callable[[SessionManager], object] | None = None,
    ) -> NavigationOutcome: ...
    async def fork(self, entry_id: str, /) -> NavigationOutcome: ...
    async def navigate_tree(
        self,
        target_id: str,
        /,
        *,
        summarize: bool = False,
        custom_instructions: str | None = None,
        replace_instructions: bool | None = None,
        label: str | None = None,
    ) -> NavigationOutcome: ...
    async def switch_session(self, session_path: str, /) -> NavigationOutcome: ...


class _LoadingActions:
    """Stands in for the session while plugins load: every action raises a clear error."""

    def __getattr__(self, name: str) -> NoReturn:
        raise PluginActionError(
            f"ctx.{name}() is not available while plugins are loading. Loading only registers "
            "(tools, commands, flags…); call actions from an event hook such as session_start, "
            "from a tool, or from a command."
        )


def _loading_actions() -> SessionActions:
    """Return the stand-in that raises for every session action."""
    return cast("SessionActions", _LoadingActions())


def _loading_navigation() -> SessionNavigation:
    """Return the stand-in that raises for every navigation action."""
    return cast("SessionNavigation", _LoadingActions())


class PluginRuntime:
    """State every ExtensionContext reads: cwd, UI, event bus, flags, and the bound actions.

    `actions` is the session's implementation of the context actions (issue: AgentSession);
    until `bind()` is called it is a stand-in that raises PluginActionError.
    """

    def __init__(
        self,
        cwd: str,
        ui: ExtensionUI | None = None,
        on_bus_error: Callable[[str, BaseException], None] | None = None,
    ) -> None:
        self.cwd = cwd
        self.ui: ExtensionUI = ui or NoOpUI()
        self.events = EventBus(on_bus_error)
        self.flag_values: dict[str, bool | str | None] = {}
        self.session: SessionReader | None = None
        self.model_registry: ModelRegistry | None = None
        self.settings: SettingsManager | None = None
        """The session's settings, which `ctx.settings` reads (set by the SDK)."""
        self.actions: SessionActions = _loading_actions()
        self.navigation: SessionNavigation = _loading_navigation()
        self.bound = False
        self.tool_call_chain: ToolCallChain | None = None
        """The `tool_call` chain of the plugins this runtime serves (set by the PluginManager)."""
        self.tool_result_chain: ToolResultChain | None = None
        """Their `tool_result` chain (set by the PluginManager)."""
        self.tool_operations: ToolOperations = ToolOperations()
        """The operations given in code (the SDK's `tool_operations`); they win over plugins'."""
        self.plugin_tool_operations: Callable[[], ToolOperations] = ToolOperations
        """The operations plugins registered (set by the PluginManager)."""

    def bind(self, actions: SessionActions, navigation: SessionNavigation | None = None) -> None:
        """Give plugins the real session: from now on every context's actions work."""
        self.actions = actions
        if navigation is not None:
            self.navigation = navigation
        self.bound = True

    def unbind(self) -> None:
        """Return to the loading state (used when a runtime is torn down for reload)."""
        self.actions = _loading_actions()
        self.navigation = _loading_navigation()
        self.bound = False
