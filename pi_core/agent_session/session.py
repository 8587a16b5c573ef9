"""AgentSession: the agent, its session file, plugins and resources, working as one.

The orchestration is split by concern; this class holds the shared state and routes the agent's
events (to plugins first, then the session file, then subscribers), and delegates the rest:
prompting.py (prompt flow and queues), toolset.py (tools and their hooks), retry.py,
compaction.py, navigation.py (new / switch / fork / tree), user_bash.py, stats.py, and
plugin_actions.py (what `ctx` does). Each gets only what it needs (the agent, the session store,
the dispatcher, settings, and session_controls.py's callables); none imports this module.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from pi_core.abort import AbortSignal
from pi_core.agent.agent import Agent
from pi_core.agent_session.compaction import CompactionController
from pi_core.agent_session.navigation import Navigator
from pi_core.agent_session.plugin_actions import PluginActions
from pi_core.agent_session.prompting import PromptFlow
from pi_core.agent_session.relocate import prepare_relocation
from pi_core.agent_session.retry import RetryController
from pi_core.agent_session.session_controls import SessionControls
from pi_core.agent_session.session_events import SessionInfoChangedEvent, ThinkingLevelChangedEvent
from pi_core.agent_session.settling import RunSettling
from pi_core.agent_session.stats import context_usage, session_stats
from pi_core.agent_session.toolset import ToolSet
from pi_core.agent_session.user_bash import UserBash
from pi_core.ai.model import Model
from pi_core.ai.model_registry import ModelRegistry
from pi_core.ai.thinking_levels import clamp_thinking_level, supported_thinking_levels
from pi_core.events.agent import (
    AgentEndEvent,
    MessageEndEvent,
    MessageStartEvent,
    MessageUpdateEvent,
)
from pi_core.events.user import ModelSelectEvent, ModelSelectSource, ThinkingLevelSelectEvent
from pi_core.messages.agent import AgentMessage, CustomMessage
from pi_core.messages.llm import AssistantMessage, ToolResultMessage, UserMessage, content_text
from pi_core.messages.partial_text import bring_up_to_date
from pi_core.plugins.dispatch import HookDispatcher
from pi_core.plugins.errors import PluginLoadError
from pi_core.plugins.manager import PluginManager
from pi_core.resources.resource_loader import ResourceLoader
from pi_core.resources.settings import SettingsManager
from pi_core.session.manager import SessionManager
from pi_core.thinking import THINKING_LEVELS
from pi_core.tools.tool import Tool

Listener = Callable[[Any], Any]


class AgentSession:
    """One conversation: prompt it, subscribe to its events, branch it, compact it."""

    def __init__(
        self,
        *,
        agent: Agent,
        session_manager: SessionManager,
        settings: SettingsManager,
        model_registry: ModelRegistry,
        resources: ResourceLoader,
        plugins: PluginManager,
        tools: ToolSet,
        cwd: str,
    ) -> None:
        self.agent = agent
        self.session_manager = session_manager
        self.settings = settings
        self.model_registry = model_registry
        self.resources = resources
        self.plugins = plugins
        self.tools = tools
        self.cwd = cwd
        self.scoped_models: list[tuple[Model, str | None]] = []
        self.model_fallback_message: str | None = None
        self.shutdown_requested = False
        self._listeners: list[Listener] = []
        self._background: set[asyncio.Task[Any]] = set()
        self._last_assistant: AssistantMessage | None = None
        self.retry = RetryController(settings.get_retry_settings, self._emit)
        self.controls = SessionControls(
            emit=self._emit,
            abort=self.abort,
            reload_messages=self.reload_messages,
            drop_trailing_error=self.drop_trailing_error,
            schedule_continue=self.schedule_continue,
            settle=self.settle,
            spawn=self.spawn,
            request_shutdown=self.request_shutdown,
        )
        self.compaction = CompactionController(
            agent=agent,
            session_manager=session_manager,
            settings=settings,
            dispatcher=plugins.dispatcher,
            controls=self.controls,
        )
        self.bash = UserBash(
            agent=agent,
            session_manager=session_manager,
            settings=settings,
            dispatcher=plugins.dispatcher,
            cwd=lambda: self.cwd,
        )
        self.runs = RunSettling()
        self.prompts = PromptFlow(
            agent=agent,
            session_manager=session_manager,
            plugins=plugins,
            model_registry=model_registry,
            resources=resources,
            tools=tools,
            controls=self.controls,
            base_system_prompt=lambda: self.base_system_prompt,
            flush_user_bash=self.bash.flush_pending,
            check_compaction=self.compaction.check,
            runs=self.runs,
        )
        self.navigation = Navigator(
            agent=agent,
            session_manager=session_manager,
            settings=settings,
            model_registry=model_registry,
            dispatcher=plugins.dispatcher,
            controls=self.controls,
            clear_queues=self._clear_queues,
            cwd=cwd,
            relocate=lambda folder: prepare_relocation(self, folder),
        )
        self.base_system_prompt = ""
        agent.subscribe(self._on_agent_event)
        self.rebuild_system_prompt()

    # --- state ----------------------------------------------------------------------------

    @property
    def dispatcher(self) -> HookDispatcher:
        """Return the plugin hook dispatcher."""
        return self.plugins.dispatcher

    @property
    def model(self) -> Model | None:
        """Return the current model."""
        return self.agent.state.model

    @property
    def thinking_level(self) -> str:
        """Return the current thinking level."""
        return self.agent.state.thinking_level

    @property
    def messages(self) -> list[AgentMessage]:
        """Return the transcript the agent holds (the current branch of the session)."""
        return self.agent.state.messages

    @property
    def is_streaming(self) -> bool:
        """Return whether the agent is running."""
        return self.agent.is_streaming

    @property
    def is_idle(self) -> bool:
        """Return whether nothing runs: no stream, no retry, no compaction."""
        return not (self.is_streaming or self.retry.is_retrying or self.compaction.is_compacting)

    @property
    def session_file(self) -> str | None:
        """Return the session file's path (None for in-memory sessions)."""
        path = self.session_manager.session_file
        return str(path) if path is not None else None

    @property
    def session_id(self) -> str:
        """Return the session's id."""
        return self.session_manager.session_id

    @property
    def session_name(self) -> str | None:
        """Return the session's display name."""
        return self.session_manager.get_session_name()

    # --- events ---------------------------------------------------------------------------

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call `listener(event)` for every agent and session event; returns unsubscribe."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def _emit(self, event: Any) -> None:
        for listener in list(self._listeners):
            result = listener(event)
            if result is not None and inspect.isawaitable(result):
                self.spawn(_awaited(result))

    def _on_agent_event(self, event: Any, signal: AbortSignal) -> Awaitable[None] | None:
        if type(event) is MessageUpdateEvent and not self.dispatcher.has_impls("message_update"):
            # once per streamed delta, and no plugin listens: no coroutine, no dispatch
            self._emit(event)
            return None
        return self._on_any_agent_event(event)

    async def _on_any_agent_event(self, event: Any) -> None:
        if isinstance(event, MessageStartEvent) and isinstance(event.message, UserMessage):
            self.compaction.overflow_recovery_attempted = False
            self.prompts.dequeue_text(event.message)
        if isinstance(event, MessageEndEvent):
            await self._replace_final_message(event)
        else:
            if type(event) is MessageUpdateEvent:  # plugins read the partial message itself
                bring_up_to_date(event.message)
            await self.dispatcher.notify(event.type, event)
        if isinstance(event, MessageEndEvent):
            self._persist(event.message)  # on disk before any client hears of it: a kill -9
        self._emit(event)  # right after a client saw message_end loses nothing it saw
        if isinstance(event, MessageEndEvent):
            self._after_message(event.message)
        elif isinstance(event, AgentEndEvent):
            await self._after_run()

    async def _replace_final_message(self, event: MessageEndEvent) -> None:
        """Let `message_end` plugins replace the message before anyone else sees it."""
        if not self.dispatcher.has_impls("message_end"):
            return
        replacement = await self.dispatcher.message_end(event.message)
        if replacement is event.message:
            return
        messages = self.agent.state.messages
        for index in range(len(messages) - 1, -1, -1):
            if messages[index] is event.message:
                messages[index] = replacement
                break
        event.message = replacement

    def _persist(self, message: AgentMessage) -> None:
        manager = self.session_manager
        if isinstance(message, CustomMessage):
            manager.append_custom_message_entry(
                message.custom_type, message.content, message.display, message.details
            )
        elif isinstance(message, UserMessage | AssistantMessage | ToolResultMessage):
            manager.append_message(message)

    def _after_message(self, message: AgentMessage) -> None:
        if isinstance(message, AssistantMessage):
            self._last_assistant = message
            if message.stop_reason != "error":
                self.compaction.overflow_recovery_attempted = False
                self.retry.succeeded()

    async def _after_run(self) -> None:
        message, self._last_assistant = self._last_assistant, None
        if message is None:
            return
        window = self.model.context_window if self.model else 0
        if self.retry.is_retryable(message, window):
            self.retry.begin()
            self.spawn(self._retry(message))
            return
        self.retry.finish()
        await self.compaction.check(message)

    async def _retry(self, message: AssistantMessage) -> None:
        if await self.retry.handle(message, self.drop_trailing_error):
            await self.agent.wait_for_idle()
            await self.agent.continue_()

    # --- helpers for the collaborators ----------------------------------------------------

    def spawn(self, coroutine: Coroutine[Any, Any, Any]) -> None:
        """Run follow-on work (a retry, a continue) that `prompt()` waits for."""
        task = asyncio.ensure_future(coroutine)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def settle(self) -> None:
        """Wait until retries, automatic continues and the agent itself are done."""
        # A spawned task that prompts (a plugin's send_user_message from agent_end) settles too:
        # it must not wait for itself.
        current = asyncio.current_task()
        while pending := [task for task in self._background if task is not current]:
            await asyncio.gather(*pending, return_exceptions=True)
        await self.agent.wait_for_idle()

    def schedule_continue(self) -> None:
        """Continue the agent once the current run ended (after an overflow compaction)."""

        async def go() -> None:
            await self.agent.wait_for_idle()
            await self.agent.continue_()

        self.spawn(go())

    def request_shutdown(self) -> None:
        """Ask the mode running this session to shut down (it polls `shutdown_requested`)."""
        self.shutdown_requested = True

    def plugin_actions(self) -> tuple[PluginActions, Navigator]:
        """Return what `ctx` does in this session and what moves it elsewhere, for `bind`."""
        actions = PluginActions(
            agent=self.agent,
            session_manager=self.session_manager,
            model_registry=self.model_registry,
            dispatcher=self.dispatcher,
            tools=self.tools,
            retry=self.retry,
            prompts=self.prompts,
            compaction=self.compaction,
            changes=self,
            commands=self,
            controls=self.controls,
            context_usage=self.get_context_usage,
            reload=self.reload,
        )
        return actions, self.navigation

    def drop_trailing_error(self) -> None:
        """Remove a failed response from the context (it stays in the file for history)."""
        messages = self.agent.state.messages
        if messages and isinstance(messages[-1], AssistantMessage):
            self.agent.state.messages = messages[:-1]

    def _clear_queues(self) -> None:
        """Empty the steering, follow-up, next-turn and user-command queues (a new session)."""
        self.prompts.clear(notify=False)
        self.prompts.next_turn = []
        self.bash.pending.clear()

    def reload_messages(self) -> None:
        """Rebuild the agent's transcript from the session file's current branch."""
        self.agent.state.messages = list(self.session_manager.build_session_context().messages)

    async def reload(self, on_swap: Callable[[], Any] | None = None) -> list[PluginLoadError]:
        """Reload plugins from files and folders, settings and resources (pi's `/reload`);
        returns the plugins that failed, and then nothing changed (plugin_reload.py)."""
        from pi_core.agent_session.plugin_reload import reload_session

        return await reload_session(self, on_swap)

    def rebuild_system_prompt(self) -> None:
        """Rebuild the base system prompt from the resources and the active tools."""
        self.base_system_prompt = self.resources.build_system_prompt(self.tools.active())
        self.agent.state.system_prompt = self.base_system_prompt
        self.agent.state.tools = self.tools.active()

    # --- prompting (see prompting.py) -----------------------------------------------------

    async def prompt(
        self,
        text: str,
        *,
        images: list[Any] | None = None,
        streaming_behavior: str | None = None,
        expand_prompt_templates: bool = True,
        source: str = "interactive",
        on_accepted: Callable[[], None] | None = None,
    ) -> None:
        """Send a prompt: commands, `input`, expansion, `before_agent_start`, then the agent."""
        await self.prompts.prompt(
            text,
            images=images,
            streaming_behavior=streaming_behavior,
            expand_prompt_templates=expand_prompt_templates,
            source=source,
            on_accepted=on_accepted,
        )

    async def steer(self, text: str, images: list[Any] | None = None) -> None:
        """Queue a message delivered after the current tool; the response's other calls skip."""
        await self.prompts.steer(text, images)

    async def follow_up(self, text: str, images: list[Any] | None = None) -> None:
        """Queue a message delivered when the agent would stop."""
        await self.prompts.follow_up(text, images)

    async def send_custom_message(
        self, message: CustomMessage, *, deliver_as: str | None = None, trigger_turn: bool = False
    ) -> None:
        """Add a plugin's message: steer, follow up, next turn, or now (with or without a turn)."""
        await self.prompts.send_custom_message(
            message, deliver_as=deliver_as, trigger_turn=trigger_turn
        )

    async def send_user_message(self, content: Any, *, deliver_as: str | None = None) -> None:
        """Send a message as the user, skipping commands and template expansion."""
        await self.prompts.send_user_message(content, deliver_as=deliver_as)

    async def abort(self) -> None:
        """Abort the run, a waiting retry, a compaction or a branch summary; wait until idle."""
        self.runs.note_abort()
        self.retry.cancel()
        self.compaction.abort()
        self.navigation.abort_branch_summary()
        self.agent.abort()
        await self.agent.wait_for_idle()

    # --- tools ----------------------------------------------------------------------------

    def get_active_tool_names(self) -> list[str]:
        """Return the names of the tools the LLM can call."""
        return list(self.tools.active_names)

    def set_active_tools(self, names: list[str]) -> list[str]:
        """Choose the active tools by name (unknown names are ignored); rebuilds the prompt."""
        active = self.tools.set_active(names)
        self.rebuild_system_prompt()
        return active

    def add_tool(self, tool: Tool[Any]) -> None:
        """Register a tool at run time (plugins whose tools are discovered late, such as MCP)."""
        self.tools.add(tool)
        self.rebuild_system_prompt()

    def remove_tool(self, name: str) -> None:
        """Remove a tool registered at run time; the next request no longer offers it."""
        self.tools.remove(name)
        self.rebuild_system_prompt()

    # --- model and thinking ---------------------------------------------------------------

    async def set_model(
        self, model: Model, source: ModelSelectSource = "set", *, remember: bool = True
    ) -> None:
        """Switch model (it needs a key); recorded in the session and, if `remember`, as the
        default in settings.json."""
        if not self.model_registry.has_credentials(model.provider):
            raise ValueError(f"No API key for {model.provider}/{model.id}")
        await self._apply_model(model, self._level_for_switch(), source, remember)

    async def cycle_model(self, backward: bool = False) -> tuple[Model, str] | None:
        """Move to the next scoped (or available) model; None when there is only one."""
        if self.scoped_models:
            choices = [
                (m, level)
                for m, level in self.scoped_models
                if self.model_registry.has_credentials(m.provider)
            ]
        else:
            choices = [(m, None) for m in self.model_registry.available_models()]
        if len(choices) <= 1:
            return None
        current = self.model
        index = next((i for i, (m, _) in enumerate(choices) if current and m.key == current.key), 0)
        model, level = choices[(index + (-1 if backward else 1)) % len(choices)]
        await self._apply_model(model, level or self._level_for_switch(), "cycle")
        return model, self.thinking_level

    async def _apply_model(
        self, model: Model, level: str, source: ModelSelectSource, remember: bool = True
    ) -> None:
        previous = self.model
        self.agent.state.model = model
        self.session_manager.append_model_change(model.provider, model.id)
        if remember:
            self.settings.set_default_model_and_provider(model.provider, model.id)
        self.set_thinking_level(level)
        if previous is None or previous.key != model.key:
            await self.dispatcher.notify(
                "model_select",
                ModelSelectEvent(model=model, previous_model=previous, source=source),
            )

    def _level_for_switch(self) -> str:
        if self.model is None or not self.model.reasoning:
            return self.settings.get_default_thinking_level() or "medium"
        return self.thinking_level

    def available_thinking_levels(self) -> list[str]:
        """Return the levels the current model supports (its `thinkingLevelMap`; "off" only
        without reasoning)."""
        if self.model is None:
            return list(THINKING_LEVELS)
        return supported_thinking_levels(self.model)

    def set_thinking_level(self, level: str) -> None:
        """Set the thinking level (clamped to the model); recorded when it changes."""
        levels = self.available_thinking_levels()
        if level in levels:
            effective = level
        else:
            effective = clamp_thinking_level(self.model, level) if self.model else "off"
        previous = self.agent.state.thinking_level
        self.agent.state.thinking_level = effective
        if effective == previous:
            return
        self.session_manager.append_thinking_level_change(effective)
        if (self.model is not None and self.model.reasoning) or effective != "off":
            self.settings.set_default_thinking_level(effective)  # type: ignore[arg-type]
        self._emit(ThinkingLevelChangedEvent(level=effective))
        self.spawn(
            self.dispatcher.notify(
                "thinking_level_select",
                ThinkingLevelSelectEvent(level=effective, previous_level=previous),
            )
        )

    def cycle_thinking_level(self) -> str | None:
        """Move to the next thinking level; None when the model does not think."""
        if self.model is None or not self.model.reasoning:
            return None
        levels = self.available_thinking_levels()
        current = levels.index(self.thinking_level) if self.thinking_level in levels else -1
        self.set_thinking_level(levels[(current + 1) % len(levels)])
        return self.thinking_level

    def set_steering_mode(self, mode: str) -> None:
        """Deliver steering messages "all" at once or "one-at-a-time"; saved in settings."""
        self.agent.steering_mode = mode  # type: ignore[assignment]
        self.settings.set_steering_mode(mode)  # type: ignore[arg-type]

    def set_follow_up_mode(self, mode: str) -> None:
        """Deliver follow-up messages "all" at once or "one-at-a-time"; saved in settings."""
        self.agent.follow_up_mode = mode  # type: ignore[assignment]
        self.settings.set_follow_up_mode(mode)  # type: ignore[arg-type]

    # --- session operations (see navigation.py, compaction.py, user_bash.py) --------------

    def set_session_name(self, name: str) -> None:
        """Set the display name (recorded in the session)."""
        self.session_manager.append_session_info(name)
        self._emit(SessionInfoChangedEvent(name=self.session_manager.get_session_name()))

    async def compact(self, custom_instructions: str | None = None) -> Any:
        """Compact the context now; returns the compaction result."""
        return await self.compaction.compact(custom_instructions)

    async def new_session(self, **options: Any) -> dict[str, Any]:
        """Start a new session (plugins may cancel); returns `{cancelled}`."""
        return await self.navigation.new_session(**options)

    async def switch_session(self, path: str, in_cwd: bool = False) -> dict[str, Any]:
        """Open another session file (plugins may cancel); returns `{cancelled}`. A file whose
        stored folder is gone raises MissingSessionCwdError unless `in_cwd` (go on here)."""
        return await self.navigation.switch_session(path, in_cwd)

    async def fork(self, entry_id: str, position: str = "before") -> dict[str, Any]:
        """Continue from a user message in a new file; returns `{cancelled, selected_text}`."""
        return await self.navigation.fork(entry_id, position)

    async def navigate_tree(self, target_id: str, **options: Any) -> dict[str, Any]:
        """Move to another entry of this session's tree, optionally summarizing the branch left."""
        return await self.navigation.navigate_tree(target_id, **options)

    async def execute_bash(
        self,
        command: str,
        on_chunk: Callable[[str], None] | None = None,
        *,
        exclude_from_context: bool = False,
    ) -> Any:
        """Run a user's shell command (`!cmd`, or `!!cmd` excluded from the context)."""
        return await self.bash.execute(command, on_chunk, exclude_from_context=exclude_from_context)

    # --- numbers --------------------------------------------------------------------------

    def get_session_stats(self) -> dict[str, Any]:
        """Return message counts, token totals, cost and context usage."""
        return session_stats(self)

    def get_context_usage(self) -> dict[str, Any] | None:
        """Return `{tokens, contextWindow, percent}` for the current context, or None."""
        return context_usage(self)

    def get_last_assistant_text(self) -> str | None:
        """Return the text of the last assistant answer."""
        for message in reversed(self.messages):
            if not isinstance(message, AssistantMessage):
                continue
            if message.stop_reason == "aborted" and not message.content:
                continue
            return content_text(message.content).strip() or None
        return None

    # --- lifetime -------------------------------------------------------------------------

    async def start(self, reason: str = "startup") -> None:
        """Tell plugins the session started and let them add resources."""
        from pi_core.events.session import SessionStartEvent

        await self.dispatcher.notify("session_start", SessionStartEvent(reason=reason))
        if self.dispatcher.has_impls("resources_discover"):
            await self.resources.discover_from_plugins(self.dispatcher, reason)
            self.rebuild_system_prompt()

    async def shutdown(self, reason: str = "quit") -> None:
        """Abort what runs, tell plugins the session ends, and close the session file."""
        from pi_core.events.session import SessionShutdownEvent

        await self.abort()
        await self.dispatcher.notify(
            "session_shutdown",
            SessionShutdownEvent(reason=reason),
        )
        self.session_manager.close()


async def _awaited(awaitable: Any) -> None:
    await awaitable
