"""The shared runtime behind every plugin context: unbound while loading, bound by the session."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NoReturn

from pi_core.plugins.errors import PluginActionError
from pi_core.plugins.event_bus import EventBus
from pi_core.plugins.ui import ExtensionUI, NoOpUI


class _LoadingActions:
    """Stands in for the session while plugins load: every action raises a clear error."""

    def __getattr__(self, name: str) -> NoReturn:
        raise PluginActionError(
            f"ctx.{name}() is not available while plugins are loading. Loading only registers "
            "(tools, commands, flags…); call actions from an event hook such as session_start, "
            "from a tool, or from a command."
        )


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
        self.session: Any = None
        self.model_registry: Any = None
        self.actions: Any = _LoadingActions()
        self.command_actions: Any = _LoadingActions()
        self.bound = False

    def bind(self, actions: Any, command_actions: Any = None) -> None:
        """Give plugins the real session: from now on every context's actions work."""
        self.actions = actions
        if command_actions is not None:
            self.command_actions = command_actions
        self.bound = True

    def unbind(self) -> None:
        """Return to the loading state (used when a runtime is torn down for reload)."""
        self.actions = _LoadingActions()
        self.command_actions = _LoadingActions()
        self.bound = False
