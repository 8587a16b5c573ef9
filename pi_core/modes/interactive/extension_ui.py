"""`ctx.ui` in the REPL: real dialogs, notifications, statuses, widgets and editor access."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pi_core.abort import AbortSignal
from pi_core.modes.interactive.dialogs import Dialog
from pi_core.plugins.ui import ExtensionUI, NotifyLevel, WidgetPlacement

if TYPE_CHECKING:
    from pi_core.modes.interactive.app import InteractiveApp

WIDGET_LINES = 10


class InteractiveUI(ExtensionUI):
    """Every ExtensionUI call, drawn in the REPL (dialogs replace the editor until answered)."""

    has_ui = True

    def __init__(self) -> None:
        self.app: InteractiveApp | None = None
        self.statuses: dict[str, str] = {}
        self.widgets: dict[str, tuple[list[str], WidgetPlacement]] = {}
        self.working_message: str | None = None
        self.title: str | None = None
        self.header_factory: Callable[..., Any] | None = None
        self.footer_factory: Callable[..., Any] | None = None

    def _require(self) -> InteractiveApp:
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
        """A status line: plain, `Warning:` or `Error:`."""
        app = self._require()
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

    def set_widget(
        self, key: str, content: list[str] | None, placement: WidgetPlacement = "aboveEditor"
    ) -> None:
        """Lines above or below the editor (at most 10)."""
        if content is None:
            self.widgets.pop(key, None)
        else:
            lines = [str(line) for line in content]
            if len(lines) > WIDGET_LINES:
                lines = [*lines[:WIDGET_LINES], "... (widget truncated)"]
            self.widgets[key] = (lines, placement)
        self._invalidate()

    def widget_lines(self, placement: WidgetPlacement) -> list[str]:
        """Every widget's lines for one placement, in key order."""
        return [
            line
            for key in sorted(self.widgets)
            for line in self.widgets[key][0]
            if self.widgets[key][1] == placement
        ]

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

    def _invalidate(self) -> None:
        if self.app is not None:
            self.app.invalidate()


def unsubscribe_noop() -> Callable[[], None]:
    """An unsubscribe function that does nothing."""
    return lambda: None
