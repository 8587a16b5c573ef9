"""What `ctx` does once a session is bound: the actions plugins call, and a read-only session.

Moving between sessions (`ctx.new_session`, `fork`, `navigate_tree`, `switch_session`) is not
here: the context calls navigation.py's `Navigator` itself.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from pi_core.agent.agent import Agent
from pi_core.agent_session.compaction import CompactionController
from pi_core.agent_session.prompting import PromptFlow
from pi_core.agent_session.retry import RetryController
from pi_core.agent_session.session_controls import SessionControls
from pi_core.agent_session.toolset import ToolSet
from pi_core.ai.model import Model
from pi_core.ai.model_registry import ModelRegistry
from pi_core.messages.agent import CustomMessage
from pi_core.plugins.dispatch import HookDispatcher
from pi_core.plugins.errors import PluginLoadError, PluginLoadFailed
from pi_core.plugins.manager import PluginManager
from pi_core.resources.resource_loader import ResourceLoader
from pi_core.session.manager import SessionManager
from pi_core.tools.tool import Tool


class SlashCommandSource(Protocol):
    """Where slash commands come from: plugins' commands, prompt templates and skills."""

    @property
    def plugins(self) -> PluginManager: ...
    @property
    def resources(self) -> ResourceLoader: ...


class SessionChanges(Protocol):
    """The session-wide changes a plugin may make, each recorded and announced as the user's own
    would be (an AgentSession is one)."""

    async def set_model(self, model: Model) -> None: ...
    def set_thinking_level(self, level: str) -> None: ...
    def set_session_name(self, name: str) -> None: ...
    def set_active_tools(self, names: list[str]) -> list[str]: ...
    def add_tool(self, tool: Tool[Any]) -> None: ...
    def remove_tool(self, name: str) -> None: ...


_READ_ONLY = (
    "cwd",
    "session_id",
    "session_file",
    "session_dir",
    "get_entries",
    "get_branch",
    "get_entry",
    "get_children",
    "get_label",
    "get_leaf_id",
    "get_leaf_entry",
    "get_tree",
    "get_header",
    "get_session_name",
    "build_session_context",
    "is_persisted",
)


class ReadOnlySession:
    """The session manager as plugins see it: everything to read, nothing to write."""

    def __init__(self, get_manager: Callable[[], Any]) -> None:
        self._get_manager = get_manager

    def __getattr__(self, name: str) -> Any:
        if name not in _READ_ONLY:
            raise AttributeError(
                f"ctx.session.{name} is not available: the session is read-only for plugins "
                "(use ctx.append_entry, ctx.set_label, ctx.set_session_name or ctx.send_message)"
            )
        return getattr(self._get_manager(), name)

    def get_session_file(self) -> str | None:
        """Return the session file's path."""
        path = self._get_manager().session_file
        return str(path) if path is not None else None


class PluginActions:
    """The session's answers to `ctx` actions (see ExtensionContext)."""

    def __init__(
        self,
        *,
        agent: Agent,
        session_manager: SessionManager,
        model_registry: ModelRegistry,
        dispatcher: HookDispatcher,
        tools: ToolSet,
        retry: RetryController,
        prompts: PromptFlow,
        compaction: CompactionController,
        changes: SessionChanges,
        commands: SlashCommandSource,
        controls: SessionControls,
        context_usage: Callable[[], dict[str, Any] | None],
        reload: Callable[[], Awaitable[list[PluginLoadError]]],
    ) -> None:
        self._agent = agent
        self._session_manager = session_manager
        self._model_registry = model_registry
        self._dispatcher = dispatcher
        self._tools = tools
        self._retry = retry
        self._prompts = prompts
        self._compaction = compaction
        self._changes = changes
        self._commands = commands
        self._controls = controls
        self._context_usage = context_usage
        self._reload = reload

    def _report(self, event: str, error: BaseException) -> None:
        self._dispatcher.publish_error("", "<runtime>", event, error)

    def _background(self, event: str, coroutine: Any) -> None:
        async def guarded() -> None:
            try:
                await coroutine
            except Exception as error:
                self._report(event, error)

        self._controls.spawn(guarded())

    def get_model(self) -> Model | None:
        """Return the current model."""
        return self._agent.state.model

    def is_idle(self) -> bool:
        """Return whether the agent is idle."""
        return not self._agent.is_streaming

    def abort(self) -> None:
        """Abort the current run."""
        self._retry.cancel()
        self._agent.abort()

    def has_pending_messages(self) -> bool:
        """Return whether messages are queued."""
        return self._agent.has_queued_messages()

    def shutdown(self) -> None:
        """Ask the mode to shut down (modes replace this handler)."""
        self._controls.request_shutdown()

    def get_context_usage(self) -> Any:
        """Return the context usage."""
        return self._context_usage()

    def compact(
        self,
        custom_instructions: str | None = None,
        *,
        on_complete: Callable[[Any], None] | None = None,
        on_error: Callable[[BaseException], None] | None = None,
    ) -> None:
        """Compact in the background and report through the callbacks."""

        async def run() -> None:
            try:
                result = await self._compaction.compact(custom_instructions)
            except Exception as error:
                if on_error is not None:
                    on_error(error)
                return
            if on_complete is not None:
                on_complete(result)

        self._controls.spawn(run())

    def get_system_prompt(self) -> str:
        """Return the system prompt in effect."""
        return self._agent.state.system_prompt

    def send_message(
        self, message: Any, *, trigger_turn: bool = False, deliver_as: str | None = None
    ) -> None:
        """Send a custom message (a dict or CustomMessage) in the background."""
        custom = message if isinstance(message, CustomMessage) else CustomMessage(**message)
        self._background(
            "send_message",
            self._prompts.send_custom_message(
                custom, deliver_as=deliver_as, trigger_turn=trigger_turn
            ),
        )

    def send_user_message(self, content: Any, *, deliver_as: str | None = None) -> None:
        """Send a user message in the background."""
        self._background(
            "send_user_message", self._prompts.send_user_message(content, deliver_as=deliver_as)
        )

    def append_entry(self, custom_type: str, data: Any = None) -> None:
        """Store plugin state in the session."""
        self._session_manager.append_custom_entry(custom_type, data)

    def set_session_name(self, name: str) -> None:
        """Set the session's display name."""
        self._changes.set_session_name(name)

    def get_session_name(self) -> str | None:
        """Return the session's display name."""
        return self._session_manager.get_session_name()

    def set_label(self, entry_id: str, label: str | None) -> None:
        """Label an entry."""
        self._session_manager.append_label_change(entry_id, label)

    def get_active_tools(self) -> list[str]:
        """Return the active tools' names."""
        return list(self._tools.active_names)

    def get_all_tools(self) -> list[dict[str, Any]]:
        """Return every tool's name, description and schema."""
        return self._tools.describe()

    def set_active_tools(self, names: list[str]) -> None:
        """Set the active tools."""
        self._changes.set_active_tools(names)

    def register_tool(self, tool: Any) -> None:
        """Add a tool at run time."""
        self._changes.add_tool(tool)

    def unregister_tool(self, name: str) -> None:
        """Remove a tool added at run time."""
        self._changes.remove_tool(name)

    def get_commands(self) -> list[dict[str, Any]]:
        """Return plugin commands, prompt templates and skills as slash commands."""
        return slash_commands(self._commands)

    async def set_model(self, model: Model) -> bool:
        """Switch model; False without a key."""
        if not self._model_registry.has_credentials(model.provider):
            return False
        await self._changes.set_model(model)
        return True

    def get_thinking_level(self) -> str:
        """Return the thinking level."""
        return self._agent.state.thinking_level

    def set_thinking_level(self, level: str) -> None:
        """Set the thinking level."""
        self._changes.set_thinking_level(level)

    async def wait_for_idle(self) -> None:
        """Wait until the agent is idle."""
        await self._agent.wait_for_idle()

    async def reload(self) -> None:
        """Reload plugins from files and folders, settings and resources, as `/reload` does;
        raises PluginLoadFailed (and nothing changed) when a plugin fails to reload."""
        errors = await self._reload()
        if errors:
            raise PluginLoadFailed(errors)


def slash_commands(session: SlashCommandSource) -> list[dict[str, Any]]:
    """Return the slash commands available: plugin commands, prompt templates, skills, each
    with the `sourceInfo` pi gives it."""
    from pi_core.agent_session.command_sources import plugin_source_infos, resource_source_info

    by_plugin = plugin_source_infos(session.plugins)
    commands: list[dict[str, Any]] = [
        {"name": c.name, "description": c.description, "source": "extension",
         "sourceInfo": by_plugin.get(c.plugin) or {"path": f"<plugin:{c.plugin}>",
                                                   "source": "local", "scope": "temporary",
                                                   "origin": "top-level"}}
        for c in session.plugins.registry.commands.values()
    ]  # fmt: skip
    commands += [
        {"name": t.name, "description": t.description, "source": "prompt",
         "sourceInfo": resource_source_info(t.source_info, t.file_path)}
        for t in session.resources.prompts
    ]  # fmt: skip
    commands += [
        {"name": f"skill:{s.name}", "description": s.description, "source": "skill",
         "sourceInfo": resource_source_info(s.source_info, s.file_path)}
        for s in session.resources.skills
    ]  # fmt: skip
    return commands
