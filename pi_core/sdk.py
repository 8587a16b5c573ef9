"""`create_agent_session`: everything an AgentSession needs, assembled the way `pi` does it."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pi_core.agent.agent import Agent, AgentOptions, AgentState
from pi_core.agent_session.loop_hooks import LoopHooks
from pi_core.agent_session.plugin_actions import ReadOnlySession
from pi_core.agent_session.provider_retry import with_provider_retry
from pi_core.agent_session.session import AgentSession
from pi_core.agent_session.toolset import ToolSelection, ToolSet
from pi_core.ai.auth import AuthStorage
from pi_core.ai.model import Model
from pi_core.ai.model_registry import ModelRegistry
from pi_core.ai.protocol import StreamOptions
from pi_core.ai.thinking_levels import clamp_thinking_level
from pi_core.config.paths import agent_dir as default_agent_dir
from pi_core.messages.block_images import blocking_images
from pi_core.messages.convert import convert_to_llm
from pi_core.plugins.errors import PluginLoadFailed
from pi_core.plugins.manager import LoadOptions, PluginManager
from pi_core.plugins.ui import ExtensionUI
from pi_core.resources.resource_loader import ResourceLoader
from pi_core.resources.settings import SettingsManager
from pi_core.session.manager import SessionManager
from pi_core.tools.operations import ToolOperations
from pi_core.tools.tool import Tool

DEFAULT_THINKING_LEVEL = "medium"


async def create_agent_session(
    *,
    cwd: str | Path | None = None,
    agent_dir: str | Path | None = None,
    model: Model | str | None = None,
    thinking_level: str | None = None,
    tools: Sequence[str] | None = None,
    no_tools: bool = False,
    no_builtin_tools: bool = False,
    custom_tools: Sequence[Tool[Any]] = (),
    plugins: Sequence[Any] = (),
    load_options: LoadOptions | None = None,
    session: SessionManager | None = None,
    settings: SettingsManager | None = None,
    resources: ResourceLoader | None = None,
    auth: AuthStorage | None = None,
    model_registry: ModelRegistry | None = None,
    api_key: str | None = None,
    ui: ExtensionUI | None = None,
    plugin_manager: PluginManager | None = None,
    tool_operations: ToolOperations | None = None,
) -> AgentSession:
    """Create a session: plugins loaded, model chosen, tools wrapped, `session_start` sent.

    `tools` is an allow-list of tool names (pi's `--tools`); `custom_tools` are Tool objects
    added beside the plugins' ones; `plugins` are plugin objects registered in code. Pass
    `session=SessionManager.in_memory()` to keep nothing on disk. `tool_operations` runs the
    built-in tools elsewhere (each kind given wins over the plugins'; see pi_core.tools).

    Raises PluginLoadFailed, before anything runs, when a plugin failed to import or register
    (a missing gate must not go unnoticed); block it by name in `load_options` to go on without.
    """
    # pi's order: the cwd given, else the session's (an opened file's stored folder), else here
    folder = Path(cwd or (session.cwd if session is not None else None) or Path.cwd()).resolve()
    agent_home = Path(agent_dir) if agent_dir is not None else default_agent_dir()
    settings = settings or SettingsManager.create(folder, str(agent_home))

    if plugin_manager is None:
        manager = PluginManager(folder, agent_dir=agent_home, ui=ui)
        manager.runtime.settings = settings  # readable while plugins load
        manager.load(load_options)
    else:
        manager = plugin_manager
    manager.runtime.settings = settings
    for index, plugin in enumerate(plugins):
        name = getattr(plugin, "__name__", None) or f"sdk-plugin-{index + 1}"
        manager.register_inline(plugin, name)
    if manager.errors:
        raise PluginLoadFailed(manager.errors)
    if tool_operations is not None:
        manager.runtime.tool_operations = tool_operations

    auth = auth or AuthStorage(agent_home / "auth.json")
    if model_registry is None:
        registry = manager.model_registry(auth)
    else:
        registry = model_registry
        manager.apply_providers(registry)

    if resources is None:
        resources = ResourceLoader(folder, agent_home, settings)
        resources.reload()
    session_manager = session or SessionManager.create(str(folder))

    chosen, level, fallback = _choose_model(model, registry, session_manager, settings)
    if thinking_level is not None:
        level = thinking_level
    if chosen is not None:
        level = clamp_thinking_level(chosen, level)  # pi: to what the model accepts
    if api_key and chosen is not None:
        auth.set_runtime_key(chosen.provider, api_key)

    toolset = ToolSet(
        [registered.tool for registered in manager.registry.tools.values()] + list(custom_tools),
        ToolSelection(allow=tools, no_tools=no_tools, no_builtin_tools=no_builtin_tools),
    )
    hooks = LoopHooks(manager.dispatcher)

    async def get_api_key(provider: str) -> str | None:
        # a due subscription refresh runs off the event loop before each provider request
        await registry.auth.refresh_if_due(provider)
        return registry.get_api_key(provider)

    budgets = settings.get_thinking_budgets()
    agent = Agent(
        AgentOptions(
            stream_for=with_provider_retry(
                registry.stream_for, settings.get_provider_retry_settings
            ),
            convert_to_llm=blocking_images(convert_to_llm, settings.get_block_images),
            transform_context=hooks.transform_context,
            get_api_key=get_api_key,
            request_headers=registry.request_headers,
            session_id=lambda: agent_session.session_id or None,
            before_tool_call=hooks.before_tool_call,
            after_tool_call=hooks.after_tool_call,
            tool_context=manager.ctx,
            steering_mode=settings.get_steering_mode(),
            follow_up_mode=settings.get_follow_up_mode(),
            stream_options=StreamOptions(
                on_payload=hooks.on_payload,
                on_response=hooks.on_response,
                thinking_budgets=budgets.model_dump(exclude_none=True) if budgets else None,
            ),
        ),
        AgentState(model=chosen, thinking_level=level),
    )
    agent_session = AgentSession(
        agent=agent,
        session_manager=session_manager,
        settings=settings,
        model_registry=registry,
        resources=resources,
        plugins=manager,
        tools=toolset,
        cwd=str(folder),
    )
    agent_session.model_fallback_message = fallback
    agent_session.reload_messages()
    _record_start(session_manager, chosen, level)
    manager.runtime.session = ReadOnlySession(lambda: agent_session.session_manager)
    manager.runtime.model_registry = registry
    manager.bind(*agent_session.plugin_actions())
    await agent_session.start()
    return agent_session


def _record_start(session: SessionManager, model: Model | None, level: str) -> None:
    """Record the model and thinking level a new session starts with, as pi does."""
    has_history = bool(session.build_session_context().messages)
    has_level = session.branch_has_entry_type("thinking_level_change")
    if not has_history and model is not None:
        session.append_model_change(model.provider, model.id)
    if not has_history or not has_level:
        session.append_thinking_level_change(level)


def _choose_model(
    requested: Model | str | None,
    registry: ModelRegistry,
    session: SessionManager,
    settings: SettingsManager,
) -> tuple[Model | None, str, str | None]:
    """Pick the model: asked for, else the session's, else settings' default, else the first
    with a key. Returns (model, thinking level, a note when a saved model was unavailable)."""
    context = session.build_session_context()
    level: str | None = None
    fallback: str | None = None
    model: Model | None = None
    if isinstance(requested, Model):
        model = requested
    elif isinstance(requested, str):
        choice = registry.resolve(requested)
        model, level = choice.model, choice.thinking_level
    elif context.model is not None and context.messages:
        found = registry.find(context.model.provider, context.model.model_id)
        if found is not None and registry.has_credentials(found.provider):
            model = found
        else:
            fallback = f"Could not restore model {context.model.provider}/{context.model.model_id}"
    if model is None and requested is None:
        provider, model_id = settings.get_default_provider(), settings.get_default_model()
        if provider and model_id:
            model = registry.find(provider, model_id)
        if model is None:
            from pi_core.ai.provider_defaults import initial_model

            model = initial_model(registry)
        if fallback and model is not None:
            fallback += f". Using {model.provider}/{model.id}"
    has_history = bool(context.messages)
    if level is None:
        level = (
            context.thinking_level
            if has_history and context.thinking_level
            else settings.get_default_thinking_level() or DEFAULT_THINKING_LEVEL
        )
    if model is not None and not model.reasoning:
        level = "off"
    return model, level, fallback


__all__ = ["create_agent_session"]
