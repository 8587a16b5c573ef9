"""`ctx.ui` in the REPL: real dialogs, notifications, statuses, widgets and editor access."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from pi_core.abort import AbortSignal
from pi_core.modes.interactive.autocomplete import StackedCompleter
from pi_core.modes.interactive.dialogs import Dialog
from pi_core.modes.interactive.terminal_input import InputListeners
from pi_core.modes.interactive.widgets import RenderHost, Widgets
from pi_core.modes.interactive.working import WorkingIndicator
from pi_core.plugins.ui import (
    AutocompleteProviderFactory,
    ExtensionUI,
    NotifyLevel,
    TerminalInputHandler,
    WidgetFactory,
    WidgetPlacement,
)

if TYPE_CHECKING:
    from pi_core.modes.interactive.host import UIHost

DEFAULT_HIDDEN_THINKING_LABEL = "Thinking..."


class InteractiveUI(ExtensionUI):
    """Every ExtensionUI call, drawn in the REPL (dialogs replace the editor until answered)."""

    has_ui = True

    def __init__(self) -> None:
        self.app: UIHost | None = None
        self.statuses: dict[str, str] = {}
        self.widgets = Widgets(RenderHost(self._invalidate), lambda: self.theme, self._failed)
        self.working_message: str | None = None
        self.indicator = WorkingIndicator()
        self.hidden_thinking_label = DEFAULT_HIDDEN_THINKING_LABEL
        self.input_listeners = InputListeners(lambda error: self._failed("input listener", error))
        self.autocomplete = StackedCompleter(lambda error: self._failed("completer", error))
        self.editor_factory: Callable[..., Any] | None = None
        self.editor_component: Any = None
        self.title: str | None = None
        self.header_factory: Callable[..., Any] | None = None
        self.footer_factory: Callable[..., Any] | None = None
        self.early_notices: list[tuple[str, NotifyLevel]] = []
        """What plugins notified while the session was starting (shown once the REPL runs)."""

    def app_ready(self) -> None:
        """The REPL exists now: apply what plugins set while the session was starting."""
        app = self._require()
        app.transcript.hidden_thinking_label = self.hidden_thinking_label
        if self.editor_factory is not None:
            self.set_editor_component(self.editor_factory)
        notices, self.early_notices = self.early_notices, []
        for message, level in notices:
            self.notify(message, level)

    def clear_plugin_state(self) -> None:
        """Take away everything plugins set: statuses, widgets, header, footer, working row,
        thinking label, input listeners, completers and editor component (for `/reload`)."""
        self.statuses.clear()
        self.widgets.clear()
        self.header_factory = None
        self.footer_factory = None
        self.working_message = None
        self.indicator = WorkingIndicator()
        self.input_listeners.clear()
        self.autocomplete.clear()
        self.set_hidden_thinking_label(None)
        self.set_editor_component(None)

    def _failed(self, what: str, error: BaseException) -> None:
        if self.app is not None:
            self.app.transcript.status(
                f"Warning: plugin {what} failed ({type(error).__name__}: {error}); removed",
                "yellow",
            )
            self.app.invalidate()

    def _require(self) -> UIHost:
        if self.app is None:
            raise RuntimeError("the REPL is not running yet")
        return self.app

    async def _ask(self, dialog: Dialog, signal: AbortSignal | None, timeout: float | None) -> Any:
        app = self._require()
        if timeout:
            dialog.deadline = time.monotonic() + timeout  # seconds, as in RpcUI
        remove = signal.add_listener(lambda: dialog.answer(None)) if signal is not None else None
        if signal is not None and signal.aborted:
            dialog.answer(None)
        app.open_dialog(dialog)
        try:
            if dialog.deadline is not None:
                try:
                    return await asyncio.wait_for(
                        asyncio.shield(dialog.future), dialog.deadline - time.monotonic()
                    )
                except TimeoutError:
                    dialog.answer(None)
                    return None
            return await dialog.future
        finally:
            if remove is not None:
                remove()
            app.close_dialog(dialog)

    async def select(
        self,
        title: str,
        options: list[str],
        *,
        signal: AbortSignal | None = None,
        timeout: float | None = None,
    ) -> str | None:
        """A list to pick from (Enter picks, Esc cancels)."""
        result = await self._ask(Dialog("select", title, list(options)), signal, timeout)
        return result if isinstance(result, str) else None

    async def confirm(
        self,
        title: str,
        message: str,
        *,
        signal: AbortSignal | None = None,
        timeout: float | None = None,
    ) -> bool:
        """Yes / No."""
        dialog = Dialog("select", title, ["Yes", "No"], message=message)
        answer = await self._ask(dialog, signal, timeout)
        return bool(answer == "Yes")

    async def input(
        self,
        title: str,
        placeholder: str | None = None,
        *,
        signal: AbortSignal | None = None,
        timeout: float | None = None,
    ) -> str | None:
        """One line of text."""
        dialog = Dialog("input", title, message=placeholder or "")
        result = await self._ask(dialog, signal, timeout)
        return result if isinstance(result, str) else None

    async def editor(self, title: str, prefill: str | None = None) -> str | None:
        """Several lines of text (Ctrl+J for a new line)."""
        result = await self._ask(Dialog("editor", title, prefill=prefill or ""), None, None)
        return result if isinstance(result, str) else None

    async def custom(self, factory: Callable[..., Any], **options: Any) -> Any:
        """Show a component in place of the editor until it calls `done(value)`.

        `factory(done)` returns a prompt_toolkit container (a `Window` with a focusable control
        and its own key bindings, say); Esc cancels with None. Overlay options are ignored: the
        REPL draws inline, so the component always takes the editor's place.
        """
        app = self._require()
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()

        def done(value: Any = None) -> None:
            if not future.done():
                future.set_result(value)

        component = factory(done)
        app.open_custom(component, done)
        try:
            return await future
        finally:
            app.close_custom(component)

    def set_header(self, factory: Callable[..., Any] | None) -> None:
        """Replace the start-up header (None restores it); drawn at start and on Ctrl+O.

        `factory({"expanded": bool})` returns a rich renderable, a string or a list of lines.
        """
        self.header_factory = factory

    def set_footer(self, factory: Callable[..., Any] | None) -> None:
        """Replace the footer (None restores it).

        `factory(data)` returns a list of lines (or one string, ANSI colours allowed); `data`
        holds `width`, `cwd`, `git_branch`, `session_name`, `model`, `thinking_level` and
        `statuses`.
        """
        self.footer_factory = factory
        self._invalidate()

    def notify(self, message: str, type: NotifyLevel = "info") -> None:
        """A status line: plain, `Warning:` or `Error:` (kept until the REPL runs, if it does not
        yet: a `session_start` hook's)."""
        if self.app is None:
            self.early_notices.append((message, type))
            return
        app = self.app
        if type == "error":
            app.transcript.status(f"Error: {message}", "red")
        elif type == "warning":
            app.transcript.status(f"Warning: {message}", "yellow")
        else:
            app.transcript.status(message)
        app.invalidate()

    def set_status(self, key: str, text: str | None) -> None:
        """A footer status entry (None clears it)."""
        if text is None:
            self.statuses.pop(key, None)
        else:
            self.statuses[key] = text
        self._invalidate()

    def set_working_message(self, message: str | None = None) -> None:
        """The spinner's text while the agent works."""
        self.working_message = message
        self._invalidate()

    def set_working_visible(self, visible: bool) -> None:
        """Show or hide the spinner row while the agent works."""
        self.indicator.visible = bool(visible)
        self._invalidate()

    def set_working_indicator(
        self, frames: Sequence[str] | None = None, *, interval_ms: float | None = None
    ) -> None:
        """The spinner's frames, drawn as given (`[]`: none; no argument: the default)."""
        self.indicator.configure(frames, interval_ms)
        self._invalidate()

    def set_hidden_thinking_label(self, label: str | None = None) -> None:
        """The line shown in place of a hidden thinking block (None: `Thinking...`)."""
        self.hidden_thinking_label = label or DEFAULT_HIDDEN_THINKING_LABEL
        if self.app is not None:
            self.app.transcript.hidden_thinking_label = self.hidden_thinking_label
        self._invalidate()

    def set_widget(
        self,
        key: str,
        content: list[str] | WidgetFactory | None,
        placement: WidgetPlacement = "aboveEditor",
    ) -> None:
        """Lines (at most 10) or a component, above or below the editor.

        A factory is called as `factory(tui, theme)` and returns a component whose
        `render(width)` gives its lines at each frame (`tui.request_render()` asks for one);
        its `dispose()`, if any, runs when the widget is replaced or removed.
        """
        try:
            self.widgets.set(key, content, placement)
        except Exception as error:
            self._failed(f"widget {key}", error)
        self._invalidate()

    def widget_lines(self, placement: WidgetPlacement, width: int = 80) -> list[str]:
        """Every widget's lines for one placement, in key order."""
        return self.widgets.lines(placement, width)

    def on_terminal_input(self, handler: TerminalInputHandler) -> Callable[[], None]:
        """See each key's raw text before the editor; return `{"consume": True}` to drop it
        or `{"data": text}` to pass other text on. Returns the function that stops it."""
        return self.input_listeners.add(handler)

    def add_autocomplete_provider(self, factory: AutocompleteProviderFactory) -> None:
        """`factory(current)` returns a prompt_toolkit Completer used in place of `current`."""
        self.autocomplete.add(factory)
        self._invalidate()

    def set_editor_component(self, factory: Callable[..., Any] | None) -> None:
        """Draw `factory(buffer, theme)`'s container in place of the editor (None: the default).

        The container usually shows the editor's own `buffer` in a `BufferControl` with its
        own key bindings; keys it does not bind keep their REPL meaning (Enter sends).
        """
        self.editor_factory = factory
        app = self.app
        if app is None:
            return
        component = None
        if factory is not None:
            try:
                component = factory(app.buffer, app.theme)
            except Exception as error:
                self.editor_factory = None
                self._failed("editor component", error)
        self.editor_component = component
        idle = app.dialog is None and app.custom_component is None
        if idle and not app.focus(app.buffer) and component is not None:
            app.focus(component)
        app.invalidate()

    def get_editor_component(self) -> Callable[..., Any] | None:
        """The editor factory in use (None: the default editor)."""
        return self.editor_factory

    def set_title(self, title: str) -> None:
        """The terminal window's title."""
        self.title = title
        if self.app is not None:
            self.app.set_title(title)

    def paste_to_editor(self, text: str) -> None:
        """Paste at the cursor (a large paste becomes a marker)."""
        app = self._require()
        app.buffer.insert_text(app.paste(text))

    def set_editor_text(self, text: str) -> None:
        """Replace the editor's text."""
        app = self._require()
        app.buffer.text = text
        app.buffer.cursor_position = len(text)

    def get_editor_text(self) -> str:
        """The editor's text, paste markers expanded."""
        app = self._require()
        return app.expand_text(app.buffer.text)

    def get_tools_expanded(self) -> bool:
        """Whether tool output is expanded."""
        return self.app.transcript.expanded if self.app is not None else False

    def set_tools_expanded(self, expanded: bool) -> None:
        """Expand or collapse tool output."""
        if self.app is not None:
            self.app.transcript.expanded = expanded
            self._invalidate()

    @property
    def theme(self) -> Any:
        """The REPL's theme (`theme.style(key)` gives a rich style)."""
        return self.app.theme if self.app is not None else None

    def get_all_themes(self) -> list[dict[str, str | None]]:
        """Every theme by name, with its file (None for the built-in ones), sorted."""
        from pi_core.modes.interactive.themes.active import available_themes

        if self.app is None:
            return []
        found = available_themes(self.app.session)
        return [{"name": name, "path": found[name].path} for name in sorted(found)]

    def get_theme(self, name: str) -> Any:
        """The named theme, loaded without switching to it (None if unknown or broken)."""
        from pi_core.modes.interactive.themes.active import available_themes, load_theme

        app = self.app
        if app is None or name not in available_themes(app.session):
            return None
        theme, warnings = load_theme(app.session, name, app.theme.color)
        return None if warnings else theme

    def set_theme(self, theme: Any) -> dict[str, Any]:
        """Switch to a theme (a name, saved in the settings, or a theme from `get_theme`)."""
        from pi_core.modes.interactive.theme import Theme
        from pi_core.modes.interactive.themes.active import (
            apply_theme,
            available_themes,
            load_theme,
        )

        app = self.app
        if app is None:
            return {"success": False, "error": "The REPL has not started yet"}
        if isinstance(theme, Theme):
            apply_theme(app, theme)
            return {"success": True}
        name = str(theme)
        if name not in available_themes(app.session):
            return {"success": False, "error": f"Theme not found: {name}"}
        loaded, warnings = load_theme(app.session, name, app.theme.color)
        if warnings:
            return {"success": False, "error": "; ".join(warnings)}
        apply_theme(app, loaded)
        if app.session.settings.get_theme() != name:
            app.session.settings.set_theme(name)
        return {"success": True}

    def _invalidate(self) -> None:
        if self.app is not None:
            self.app.invalidate()


def unsubscribe_noop() -> Callable[[], None]:
    """An unsubscribe function that does nothing."""
    return lambda: None
