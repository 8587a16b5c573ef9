"""Moving a running session to another folder, as pi 0.73.1 does when it opens a session whose
stored folder (the header's `cwd`) differs from the one it works in.

pi builds the whole runtime afresh for the opened session's folder: tools, `!` commands and the
system prompt's working directory follow it, and project settings, plugins, context files and
resources are read from there. Called between `session_shutdown` and `session_start`.
"""

from __future__ import annotations

import logging
import os
from typing import Protocol

from pi_core.agent.agent import Agent
from pi_core.agent_session.toolset import ToolSet
from pi_core.ai.model_registry import ModelRegistry
from pi_core.plugins.manager import PluginManager
from pi_core.plugins.reloading import commit_reload, stage_reload
from pi_core.resources.resource_loader import ResourceLoader
from pi_core.resources.settings import SettingsManager

logger = logging.getLogger(__name__)


class Relocatable(Protocol):
    """What a move touches in the session (an AgentSession is one)."""

    cwd: str
    agent: Agent
    plugins: PluginManager
    tools: ToolSet
    model_registry: ModelRegistry
    resources: ResourceLoader
    settings: SettingsManager

    def rebuild_system_prompt(self) -> None: ...


def session_folder(stored_cwd: str | None, current: str) -> str:
    """The folder an opened session works in: its stored one when that is a folder that exists,
    else `current` (a session without a header cwd, or one going on where the user is)."""
    if stored_cwd and os.path.isdir(stored_cwd):
        return os.path.abspath(stored_cwd)
    return current


def relocate(session: Relocatable, folder: str) -> None:
    """Make `folder` the session's working folder, reloading what pi reads from a folder."""
    folder = os.path.abspath(folder)
    if folder == os.path.abspath(session.cwd):
        return
    session.settings.move_project(folder)
    session.agent.steering_mode = session.settings.get_steering_mode()  # read at creation
    session.agent.follow_up_mode = session.settings.get_follow_up_mode()
    session.plugins.move_to(folder)
    _swap_project_plugins(session)
    session.resources.cwd = folder
    session.resources.reload()
    session.cwd = folder
    session.rebuild_system_prompt()


def _swap_project_plugins(session: Relocatable) -> None:
    """Load the plugin files the new folder has (its `.pi/extensions`, its settings' paths) in
    place of the old folder's; when one fails, the loaded plugins stay (fail closed)."""
    manager = session.plugins
    staged = stage_reload(manager)
    if staged.errors:
        for error in staged.errors:
            logger.warning("plugins of %s not loaded: %s", manager.cwd, error.message())
        return
    try:
        commit_reload(manager, staged)
    except Exception as error:  # the old plugins were registered again
        logger.warning("plugins of %s not loaded: %s", manager.cwd, error)
        return
    session.tools.replace(
        [tool.tool for plugin in staged.old for tool in plugin.registrations.tools],
        [tool.tool for plugin in staged.new for tool in plugin.registrations.tools],
    )
    manager.apply_providers(session.model_registry)
