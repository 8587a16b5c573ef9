"""What the REPL's satellites may ask of the app: small protocols, one per need.

The app (`app.py`) implements every one of them; a satellite names the narrowest that does
its job and never imports the app. Attributes are read-only here: a satellite changes the live
state through `state`, never the app's own fields.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any, Protocol

from prompt_toolkit.buffer import Buffer

from pi_core.modes.interactive.dialogs import Dialog
from pi_core.modes.interactive.keybindings import Keymap
from pi_core.modes.interactive.live_state import LiveState
from pi_core.modes.interactive.theme import Theme
from pi_core.modes.interactive.transcript import Transcript


class Screen(Protocol):
    """The session, what is printed and shown, redraws and background tasks."""

    @property
    def session(self) -> Any:
        """The AgentSession the REPL runs over."""

    @property
    def transcript(self) -> Transcript:
        """The chat as printed into the scrollback."""

    @property
    def state(self) -> LiveState:
        """The live region's state (working row, status line, queues)."""

    def columns(self) -> int:
        """The terminal's width."""

    def invalidate(self) -> None:
        """Ask for a redraw on the next frame."""

    def spawn(self, coroutine: Coroutine[Any, Any, Any], what: str) -> asyncio.Task[Any]:
        """Run a coroutine in the background; an error is printed."""


class Themed(Screen, Protocol):
    """A screen with its colours."""

    @property
    def theme(self) -> Theme:
        """The theme in use (switched in place)."""


class DialogHost(Protocol):
    """Dialogs drawn in place of the editor."""

    @property
    def dialog(self) -> Dialog | None:
        """The open dialog, if any."""

    def open_dialog(self, dialog: Dialog) -> None:
        """Show a dialog in place of the editor."""

    def close_dialog(self, dialog: Dialog) -> None:
        """Put the editor back."""


class PluginUI(Protocol):
    """The part of the plugins' UI the built-in commands use."""

    header_factory: Callable[..., Any] | None

    async def select(self, title: str, options: list[str]) -> str | None:
        """Ask the user to pick one option."""

    async def confirm(self, title: str, message: str) -> bool:
        """Ask a yes/no question."""

    def clear_plugin_state(self) -> None:
        """Forget what plugins set (before a reload)."""


class EventHost(Screen, Protocol):
    """What the session events and `!` commands use."""

    @property
    def buffer(self) -> Buffer:
        """The editor's text."""


class RelayoutHost(Themed, Protocol):
    """What printing the whole chat again uses."""

    @property
    def ui(self) -> PluginUI:
        """The plugins' UI (their header)."""

    async def print_above(self, text: str) -> None:
        """Print finished lines above the live region."""


class CommandHost(RelayoutHost, DialogHost, Protocol):
    """What a built-in slash command (and the selectors it opens) may use."""

    @property
    def ui(self) -> PluginUI:
        """The plugins' UI (select, confirm)."""

    @property
    def buffer(self) -> Buffer:
        """The editor's text."""

    @property
    def keymap(self) -> Keymap:
        """The key bindings in effect."""

    def exit(self) -> None:
        """Leave the REPL."""

    def exit_with_error(self, error: Exception) -> None:
        """Leave the REPL, `error` raised from its run once the terminal is restored."""

    def update_title(self) -> None:
        """Set the terminal's title from the session's name."""

    def write_raw(self, text: str) -> None:
        """Write escape codes straight to the terminal."""

    def rebuild_keys(self) -> None:
        """Read the key bindings and plugin shortcuts again."""


class CustomHost(Protocol):
    """Plugin components drawn in place of the editor."""

    @property
    def custom_component(self) -> Any:
        """The component shown, if any."""

    def open_custom(self, component: Any, done: Any) -> None:
        """Show a component in place of the editor."""

    def close_custom(self, component: Any) -> None:
        """Put the editor back."""

    def focus(self, target: Any) -> bool:
        """Focus a buffer or container; False when it is not on screen."""


class EditorHost(Protocol):
    """The editor's text, with large pastes kept as markers."""

    @property
    def buffer(self) -> Buffer:
        """The editor's buffer."""

    def paste(self, text: str) -> str:
        """What a paste inserts (a marker when large)."""

    def expand_text(self, text: str) -> str:
        """Editor text with the paste markers expanded."""


class UIHost(Themed, DialogHost, CustomHost, EditorHost, Protocol):
    """What the plugins' UI (extension_ui.py) draws on."""

    def set_title(self, title: str) -> None:
        """The terminal window's title."""
