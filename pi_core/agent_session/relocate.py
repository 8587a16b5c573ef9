"""Moving a running session to another folder, as pi 0.73.1 does when it opens a session whose
stored folder (the header's `cwd`) differs from the one it works in.

pi builds the whole runtime afresh for the opened session's folder: tools, `!` commands and the
system prompt's working directory follow it, and project settings, plugins, context files and
resources are read from there. The new folder's plugins are imported first
(prepare_relocation): when one fails the session does not move at all (fail closed, where pi
moves and goes on without it); the move itself is applied between `session_shutdown` and
`session_start`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Protocol

from pi_core.agent.agent import Agent
from pi_core.agent_session.toolset import ToolSet
from pi_core.ai.model_registry import ModelRegistry
from pi_core.plugins.errors import PluginLoadFailed
from pi_core.plugins.manager import PluginManager
from pi_core.plugins.reloading import StagedReload, commit_reload, stage_reload
from pi_core.resources.resource_loader import ResourceLoader
from pi_core.resources.settings import SettingsManager


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


@dataclass
class Relocation:
    """A move to `folder` whose plugins are imported and waiting: apply() or abandon() it."""

    session: Relocatable
    folder: str
    staged: StagedReload

    def apply(self) -> None:
        """Make `folder` the session's working folder, reloading what pi reads from a folder."""
        session, folder = self.session, self.folder
        session.settings.move_project(folder)
        session.agent.steering_mode = session.settings.get_steering_mode()  # read at creation
        session.agent.follow_up_mode = session.settings.get_follow_up_mode()
        session.plugins.move_to(folder)
        _swap_project_plugins(session, self.staged)
        session.resources.cwd = folder
        session.resources.reload()
        session.cwd = folder
        session.rebuild_system_prompt()

    def abandon(self) -> None:
        """Drop the imported plugins: the session stays where it is."""
        self.staged.abandon()


def prepare_relocation(session: Relocatable, folder: str) -> Relocation:
    """Import the plugins `folder` has, leaving the session as it is. Raise PluginLoadFailed
    when one of them fails: nothing changes then, so no tool runs in `folder` without all of
    that folder's plugins (its permission gates among them)."""
    folder = os.path.abspath(folder)
    manager = session.plugins
    start = manager.cwd
    manager.move_to(folder)  # where the plugin files are looked up
    try:
        staged = stage_reload(manager)  # drops its imports again when one fails
    finally:
        manager.move_to(start)
    if staged.errors:
        raise PluginLoadFailed(staged.errors)
    return Relocation(session, folder, staged)


def _swap_project_plugins(session: Relocatable, staged: StagedReload) -> None:
    """Put the new folder's plugin files (its `.pi/extensions`, its settings' paths) in place of
    the old folder's; when that fails the loaded plugins stay, and the error listeners hear why."""
    manager = session.plugins
    try:
        commit_reload(manager, staged)
    except Exception as error:  # the old plugins were registered again
        manager.dispatcher.publish_error("plugins", str(manager.cwd), "load", error)
        return
    session.tools.replace(
        [tool.tool for plugin in staged.old for tool in plugin.registrations.tools],
        [tool.tool for plugin in staged.new for tool in plugin.registrations.tools],
    )
    manager.apply_providers(session.model_registry)
