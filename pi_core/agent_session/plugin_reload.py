"""`/reload` for a session: plugins from files and folders imported afresh, then resources.

The order is pi's: `session_shutdown` (reason "reload") to the plugins that are live, the swap,
settings and resources read again, then `session_start` (reason "reload") and
`resources_discover` to the new ones. A plugin that fails to import or register stops the
reload before any of that: the session goes on exactly as it was.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from pi_core.agent_session.toolset import ToolSet
from pi_core.ai.model_registry import ModelRegistry
from pi_core.events.session import SessionShutdownEvent
from pi_core.plugins.errors import PluginLoadError
from pi_core.plugins.manager import PluginManager
from pi_core.plugins.reloading import commit_reload, stage_reload
from pi_core.resources.resource_loader import ResourceLoader


class Reloadable(Protocol):
    """What a reload touches in the session (an AgentSession is one)."""

    plugins: PluginManager
    tools: ToolSet
    model_registry: ModelRegistry
    resources: ResourceLoader

    def rebuild_system_prompt(self) -> None: ...
    async def start(self, reason: str = "startup") -> None: ...


async def reload_session(
    session: Reloadable, on_swap: Callable[[], Any] | None = None
) -> list[PluginLoadError]:
    """Reload plugins, settings and resources; return what failed (then nothing changed).

    `on_swap` runs between the old plugins' `session_shutdown` and the new ones'
    `session_start` (the REPL clears the plugins' statuses, widgets, header and footer there).
    """
    manager = session.plugins
    staged = stage_reload(manager)
    if staged.errors:
        return staged.errors
    await manager.dispatcher.notify("session_shutdown", SessionShutdownEvent(reason="reload"))
    try:
        commit_reload(manager, staged)
    except Exception as error:  # the old plugins were told the session ended: start them again
        await session.start("reload")
        return [PluginLoadError("plugins", "reload", f"{type(error).__name__}: {error}")]
    session.tools.replace(
        [tool.tool for plugin in staged.old for tool in plugin.registrations.tools],
        [tool.tool for plugin in staged.new for tool in plugin.registrations.tools],
    )
    manager.apply_providers(session.model_registry)
    session.resources.reload()
    session.rebuild_system_prompt()
    if on_swap is not None:
        on_swap()
    await session.start("reload")
    return []
