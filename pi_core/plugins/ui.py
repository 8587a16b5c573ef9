"""The UI a plugin talks to through `ctx.ui`; this base class is the headless no-op version."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Literal

from pi_core.abort import AbortSignal

NotifyLevel = Literal["info", "warning", "error"]
WidgetPlacement = Literal["aboveEditor", "belowEditor"]
TerminalInputHandler = Callable[[str], dict[str, Any] | None]
# `factory(tui, theme)` returns a component with `render(width) -> list[str]` (and `dispose()`)
WidgetFactory = Callable[[Any, Any], Any]
# `factory(current_completer)` returns the completer to use instead (it may delegate to current)
AutocompleteProviderFactory = Callable[[Any], Any]


class ExtensionUI:
    """Dialogs, notifications, status, widgets and editor access; every method does nothing here.

    Modes subclass it: the REPL draws real dialogs, RPC mode forwards requests to the client,
    print mode keeps this no-op behaviour (dialogs answer None / False at once).
    """

    has_ui: bool = False

    async def select(
        self,
        title: str,
        options: list[str],
        *,
        signal: AbortSignal | None = None,
        timeout: float | None = None,
    ) -> str | None:
        """Ask the user to pick one of `options`; None if dismissed or unavailable."""
        return None

    async def confirm(
        self,
        title: str,
        message: str,
        *,
        signal: AbortSignal | None = None,
        timeout: float | None = None,
    ) -> bool:
        """Ask a yes/no question; False if dismissed or unavailable."""
        return False

    async def input(
        self,
        title: str,
        placeholder: str | None = None,
        *,
        signal: AbortSignal | None = None,
        timeout: float | None = None,
    ) -> str | None:
        """Ask for one line of text; None if dismissed or unavailable."""
        return None

    async def editor(self, title: str, prefill: str | None = None) -> str | None:
        """Ask for multi-line text; None if dismissed or unavailable."""
        return None

    async def custom(self, factory: Callable[..., Any], **options: Any) -> Any:
        """Show a custom full-screen component and return what it resolves to."""
        return None

    def notify(self, message: str, type: NotifyLevel = "info") -> None:
        """Show a short notification."""

    def set_status(self, key: str, text: str | None) -> None:
        """Set (or with None clear) a status-bar entry."""

    def set_working_message(self, message: str | None = None) -> None:
        """Set the message shown while the agent works (None restores the default)."""

    def set_working_visible(self, visible: bool) -> None:
        """Show or hide the working row (spinner and message) while the agent works."""

    def set_working_indicator(
        self, frames: Sequence[str] | None = None, *, interval_ms: float | None = None
    ) -> None:
        """Set the working row's animation frames (no argument: the default spinner)."""

    def set_hidden_thinking_label(self, label: str | None = None) -> None:
        """Set the line shown for hidden thinking blocks (None restores the default)."""

    def set_widget(
        self,
        key: str,
        content: list[str] | WidgetFactory | None,
        placement: WidgetPlacement = "aboveEditor",
    ) -> None:
        """Show lines or a component above or below the editor (None removes the widget)."""

    def set_footer(self, factory: Callable[..., Any] | None) -> None:
        """Replace the footer (None restores the default)."""

    def set_header(self, factory: Callable[..., Any] | None) -> None:
        """Replace the header (None restores the default)."""

    def set_title(self, title: str) -> None:
        """Set the terminal window title."""

    def paste_to_editor(self, text: str) -> None:
        """Paste text into the editor at the cursor."""

    def set_editor_text(self, text: str) -> None:
        """Replace the editor's text."""

    def get_editor_text(self) -> str:
        """Return the editor's text."""
        return ""

    def add_autocomplete_provider(self, factory: AutocompleteProviderFactory) -> None:
        """Stack a completer over the editor's current one."""

    def set_editor_component(self, factory: Callable[..., Any] | None) -> None:
        """Replace the input editor (None restores the default)."""

    def get_editor_component(self) -> Callable[..., Any] | None:
        """Return the editor factory in use, or None for the default editor."""
        return None

    def on_terminal_input(self, handler: TerminalInputHandler) -> Callable[[], None]:
        """Watch raw terminal input; returns an unsubscribe function."""
        return lambda: None

    @property
    def theme(self) -> Any:
        """Return the current theme."""
        return None

    def get_all_themes(self) -> list[dict[str, str | None]]:
        """Return every known theme as `{name, path}`."""
        return []

    def get_theme(self, name: str) -> Any:
        """Return a theme by name, or None."""
        return None

    def set_theme(self, theme: Any) -> dict[str, Any]:
        """Switch theme; returns `{success, error}`."""
        return {"success": False, "error": "UI not available"}

    def get_tools_expanded(self) -> bool:
        """Return whether tool output is expanded."""
        return False

    def set_tools_expanded(self, expanded: bool) -> None:
        """Expand or collapse tool output."""


class NoOpUI(ExtensionUI):
    """The UI for print mode, tests and the SDK: nothing is shown, dialogs return at once."""
