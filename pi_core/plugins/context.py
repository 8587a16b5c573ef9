"""`ctx`: what hooks, tools and commands receive to reach the session, the UI and each other."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pi_core.events.tool_events import (
    ToolCallEvent,
    ToolCallResult,
    ToolResultEvent,
    ToolResultPatch,
)
from pi_core.plugins.runtime import (
    ContextUsage,
    NavigationOutcome,
    PluginRuntime,
    SessionReader,
)
from pi_core.plugins.settings_reader import SettingsReader
from pi_core.plugins.tool_check import check_tool
from pi_core.tools.operations import ToolOperations

if TYPE_CHECKING:
    from pi_core.abort import AbortSignal
    from pi_core.ai.model import Model
    from pi_core.ai.model_registry import ModelRegistry
    from pi_core.compaction.types import CompactionResult
    from pi_core.messages.agent import CustomMessage
    from pi_core.messages.content import ImageContent, TextContent
    from pi_core.plugins.event_bus import EventBus
    from pi_core.plugins.ui import ExtensionUI
    from pi_core.session.manager import SessionManager


@dataclass(frozen=True)
class ExecResult:
    """The outcome of `ctx.exec`."""

    stdout: str
    stderr: str
    code: int
    killed: bool = False


class ExtensionContext:
    """The runtime context of event hooks and tools; actions work once the session is bound."""

    def __init__(self, runtime: PluginRuntime) -> None:
        self._runtime = runtime

    # --- always available ------------------------------------------------------------------

    @property
    def ui(self) -> ExtensionUI:
        """Return the UI (a no-op one in print mode and the SDK)."""
        return self._runtime.ui

    @property
    def has_ui(self) -> bool:
        """Return whether a real UI is attached (False in print and RPC-less headless use)."""
        return self._runtime.ui.has_ui

    @property
    def cwd(self) -> str:
        """Return the session's working directory."""
        return self._runtime.cwd

    @property
    def events(self) -> EventBus:
        """Return the bus plugins share to talk to each other."""
        return self._runtime.events

    @property
    def session(self) -> SessionReader | None:
        """Return the read-only session manager (None until a session exists)."""
        return self._runtime.session

    @property
    def model_registry(self) -> ModelRegistry | None:
        """Return the model registry (None until providers are set up)."""
        return self._runtime.model_registry

    @property
    def settings(self) -> SettingsReader:
        """Return the merged settings, read-only: `ctx.settings.get("warnings.x", default)`."""
        return SettingsReader(self._runtime.settings)

    @property
    def model(self) -> Model | None:
        """Return the current model (None while loading or when none is selected)."""
        if not self._runtime.bound:
            return None
        return self._runtime.actions.get_model()

    @property
    def tool_operations(self) -> ToolOperations:
        """Return where the built-in tools run: per kind, the SDK's operations, else the last
        plugin's (`register_tool_operations`); kinds still None run locally."""
        return self._runtime.tool_operations.or_else(self._runtime.plugin_tool_operations())

    def get_flag(self, name: str) -> bool | str | None:
        """Return the value of a flag registered through `register_flags`."""
        return self._runtime.flag_values.get(name)

    async def check_tool_call(self, event: ToolCallEvent) -> ToolCallResult | None:
        """Pass a call made outside this session's loop (a subagent's) through its tool_call chain.

        Every plugin's gate answers as for the session's own calls: the block that wins, or None
        (the call may run). Without a chain to ask, the call is blocked.
        """
        chain = self._runtime.tool_call_chain
        if chain is None:
            return ToolCallResult(block=True, reason="No tool_call hooks to check this call with")
        return await chain(event)

    async def patch_tool_result(self, event: ToolResultEvent) -> ToolResultPatch | None:
        """Pass the result of such a call through this session's `tool_result` chain."""
        chain = self._runtime.tool_result_chain
        return await chain(event) if chain is not None else None

    async def exec(
        self,
        command: str,
        args: list[str] | None = None,
        *,
        cwd: str | None = None,
        timeout: float | None = None,
        signal: AbortSignal | None = None,
    ) -> ExecResult:
        """Run a program (not through a shell) and return its output and exit code."""
        process = await asyncio.create_subprocess_exec(
            command,
            *(args or []),
            cwd=cwd or self.cwd,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env=os.environ.copy(),
        )
        remove = signal.add_listener(process.kill) if signal is not None else None
        killed = False
        try:
            stdout, stderr = await asyncio.wait_for(process.communicate(), timeout)
        except TimeoutError:
            process.kill()
            killed = True
            stdout, stderr = await process.communicate()
        finally:
            if remove is not None:
                remove()
        killed = killed or bool(signal and signal.aborted)
        return ExecResult(
            stdout=stdout.decode(errors="replace"),
            stderr=stderr.decode(errors="replace"),
            code=process.returncode if process.returncode is not None else -1,
            killed=killed,
        )

    # --- state of the agent (need a bound session) ----------------------------------------

    def is_idle(self) -> bool:
        """Return whether the agent is not streaming."""
        return self._runtime.actions.is_idle()

    def abort(self) -> None:
        """Abort the current agent run."""
        self._runtime.actions.abort()

    def has_pending_messages(self) -> bool:
        """Return whether steering or follow-up messages are queued."""
        return self._runtime.actions.has_pending_messages()

    def shutdown(self) -> None:
        """Ask pi to shut down gracefully."""
        self._runtime.actions.shutdown()

    def get_context_usage(self) -> ContextUsage | None:
        """Return `{tokens, context_window, percent}` for the current context, or None."""
        return self._runtime.actions.get_context_usage()

    def compact(
        self,
        custom_instructions: str | None = None,
        *,
        on_complete: Callable[[CompactionResult], None] | None = None,
        on_error: Callable[[BaseException], None] | None = None,
    ) -> None:
        """Start a compaction without waiting for it."""
        self._runtime.actions.compact(
            custom_instructions, on_complete=on_complete, on_error=on_error
        )

    def get_system_prompt(self) -> str:
        """Return the system prompt in effect."""
        return self._runtime.actions.get_system_prompt()

    # --- actions (need a bound session) ---------------------------------------------------

    def send_message(
        self,
        message: CustomMessage | dict[str, object],
        *,
        trigger_turn: bool = False,
        deliver_as: str | None = None,
    ) -> None:
        """Add a custom message; `deliver_as` is "steer", "followUp" or "nextTurn"."""
        self._runtime.actions.send_message(
            message, trigger_turn=trigger_turn, deliver_as=deliver_as
        )

    def send_user_message(
        self, content: str | Sequence[TextContent | ImageContent], *, deliver_as: str | None = None
    ) -> None:
        """Send a message as if the user typed it; `deliver_as` is "steer" or "followUp"."""
        self._runtime.actions.send_user_message(content, deliver_as=deliver_as)

    def append_entry(self, custom_type: str, data: object = None) -> None:
        """Store plugin state in the session (never sent to the LLM)."""
        self._runtime.actions.append_entry(custom_type, data)

    def set_session_name(self, name: str) -> None:
        """Set the session's display name."""
        self._runtime.actions.set_session_name(name)

    def get_session_name(self) -> str | None:
        """Return the session's display name."""
        return self._runtime.actions.get_session_name()

    def set_label(self, entry_id: str, label: str | None) -> None:
        """Bookmark an entry (None removes the label)."""
        self._runtime.actions.set_label(entry_id, label)

    def get_active_tools(self) -> list[str]:
        """Return the names of the tools the LLM can call now."""
        return list(self._runtime.actions.get_active_tools())

    def get_all_tools(self) -> list[dict[str, object]]:
        """Return every registered tool's name and description."""
        return list(self._runtime.actions.get_all_tools())

    def set_active_tools(self, names: list[str]) -> None:
        """Choose which tools the LLM can call (the system prompt is rebuilt)."""
        self._runtime.actions.set_active_tools(names)

    def register_tool(self, tool: object) -> None:
        """Add a tool after loading (e.g. found on a server); active unless `--tools` omits it."""
        check_tool(tool)
        self._runtime.actions.register_tool(tool)

    def unregister_tool(self, name: str) -> None:
        """Remove a tool added with `register_tool`; the LLM no longer sees it."""
        self._runtime.actions.unregister_tool(name)

    def get_commands(self) -> list[dict[str, str]]:
        """Return the slash commands available (plugins, templates, skills)."""
        return list(self._runtime.actions.get_commands())

    async def set_model(self, model: Model) -> bool:
        """Switch model; False if it has no API key."""
        return await self._runtime.actions.set_model(model)

    def get_thinking_level(self) -> str:
        """Return the current thinking level."""
        return self._runtime.actions.get_thinking_level()

    def set_thinking_level(self, level: str) -> None:
        """Set the thinking level."""
        self._runtime.actions.set_thinking_level(level)


class CommandContext(ExtensionContext):
    """The context of slash-command handlers: adds session control a user may trigger."""

    async def wait_for_idle(self) -> None:
        """Wait until the agent stops streaming."""
        await self._runtime.actions.wait_for_idle()

    async def new_session(
        self,
        *,
        parent_session: str | None = None,
        setup: Callable[[SessionManager], object] | None = None,
    ) -> NavigationOutcome:
        """Start a new session; returns `{cancelled}`."""
        return await self._runtime.navigation.new_session(
            parent_session=parent_session, setup=setup
        )

    async def fork(self, entry_id: str) -> NavigationOutcome:
        """Fork from an entry into a new session file; returns `{cancelled}`."""
        return await self._runtime.navigation.fork(entry_id)

    async def navigate_tree(
        self,
        target_id: str,
        *,
        summarize: bool = False,
        custom_instructions: str | None = None,
        replace_instructions: bool | None = None,
        label: str | None = None,
    ) -> NavigationOutcome:
        """Move to another point in the session tree; returns `{cancelled}`."""
        return await self._runtime.navigation.navigate_tree(
            target_id,
            summarize=summarize,
            custom_instructions=custom_instructions,
            replace_instructions=replace_instructions,
            label=label,
        )

    async def switch_session(self, session_path: str) -> NavigationOutcome:
        """Switch to another session file; returns `{cancelled}`."""
        return await self._runtime.navigation.switch_session(session_path)

    async def reload(self) -> None:
        """Reload plugins from files and folders, settings, skills, prompts and context files, as
        `/reload` does; raises PluginLoadFailed when a plugin fails (then nothing changed)."""
        await self._runtime.actions.reload()
