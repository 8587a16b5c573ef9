"""The REPL's screen below the scrollback: live region, borders, the editor (or a dialog, or a
plugin's component), the completion menu, the search bar, widgets and the footer."""

from __future__ import annotations

import time
from typing import Any, Protocol

from prompt_toolkit.buffer import Buffer
from prompt_toolkit.filters import Condition
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.layout import (
    ConditionalContainer,
    Dimension,
    DynamicContainer,
    FormattedTextControl,
    HSplit,
    Window,
)
from prompt_toolkit.layout.controls import BufferControl
from prompt_toolkit.layout.processors import ConditionalProcessor, PasswordProcessor
from prompt_toolkit.widgets import SearchToolbar

from pi_core.modes.interactive.editor_look import (
    CompletionMenu,
    PaddingMargin,
    menu_rows,
    padding_columns,
)
from pi_core.modes.interactive.extension_ui import InteractiveUI
from pi_core.modes.interactive.footer import footer_data, footer_lines
from pi_core.modes.interactive.host import DialogHost, Themed
from pi_core.modes.interactive.live_view import live_text
from pi_core.modes.interactive.rendering import ansi_fragments


class LayoutHost(Themed, DialogHost, Protocol):
    """What the screen shows and asks about."""

    @property
    def ui(self) -> InteractiveUI:
        """The plugins' UI: widgets, footer, editor component, working row."""

    @property
    def buffer(self) -> Buffer:
        """The editor's buffer."""

    @property
    def custom_component(self) -> Any:
        """A plugin's component shown in place of the editor, if any."""

    def rows(self) -> int:
        """The terminal's height."""

    def render_count(self) -> int:
        """How many times the screen was drawn (a new number for each render)."""

    def report_render_error(self, what: str, error: BaseException) -> None:
        """A plugin's renderer raised: say so once."""


class ReplView:
    """Builds the screen once and computes its changing parts, cached where they are costly."""

    def __init__(self, host: LayoutHost, dialog_buffer: Buffer, search: SearchToolbar) -> None:
        self._host = host
        self._dialog_buffer = dialog_buffer
        self._search = search
        self._live_cache: tuple[int, Any] | None = None
        self._generation = 0  # counts changed() calls: what the footer cache keys on
        self._footer_cache: tuple[tuple[int, int], StyleAndTextTuples] | None = None

    def changed(self) -> None:
        """Something asked for a redraw: the footer is computed again on the next one."""
        self._generation += 1

    def container(self) -> HSplit:
        """The whole screen below the scrollback."""
        host = self._host
        dialog_open = Condition(lambda: host.dialog is not None)
        custom_open = Condition(lambda: host.custom_component is not None)
        dialog_has_buffer = Condition(lambda: host.dialog is not None and host.dialog.takes_text)
        editor = Window(
            BufferControl(
                host.buffer, search_buffer_control=self._search.control, preview_search=True
            ),
            height=lambda: Dimension(min=1, max=max(5, int(host.rows() * 0.3))),
            wrap_lines=True,
            dont_extend_height=True,
            left_margins=[PaddingMargin(self._editor_padding)],
            right_margins=[PaddingMargin(self._editor_padding)],
        )
        dialog_text = Window(FormattedTextControl(self._dialog_view), dont_extend_height=True)
        dialog_input = Window(
            BufferControl(
                self._dialog_buffer,
                input_processors=[
                    ConditionalProcessor(
                        PasswordProcessor(),
                        Condition(lambda: host.dialog is not None and host.dialog.password),
                    )
                ],
            ),
            height=lambda: Dimension(min=1, max=10),
            dont_extend_height=True,
            wrap_lines=True,
        )
        # one placeholder for good: a new Window at each look made prompt_toolkit's key-binding
        # cache (keyed by the layout's controls) miss, and every key press searched all bindings
        no_component = Window(height=0)
        return HSplit(
            [
                ConditionalContainer(
                    Window(FormattedTextControl(self._live_view), dont_extend_height=True),
                    filter=Condition(self._has_live_content),
                ),
                Window(height=1, char="─", style=self._border_style),
                ConditionalContainer(
                    DynamicContainer(lambda: host.ui.editor_component or editor),
                    filter=~dialog_open & ~custom_open,
                ),
                ConditionalContainer(
                    DynamicContainer(lambda: host.custom_component or no_component),
                    filter=custom_open,
                ),
                ConditionalContainer(dialog_text, filter=dialog_open),
                ConditionalContainer(dialog_input, filter=dialog_has_buffer),
                Window(height=1, char="─", style=self._border_style),
                CompletionMenu(
                    lambda: menu_rows(host.session.settings.get_autocomplete_max_visible())
                ),
                self._search,
                ConditionalContainer(
                    Window(FormattedTextControl(self._below_view), dont_extend_height=True),
                    filter=Condition(lambda: host.ui.widgets.has("belowEditor")),
                ),
                Window(FormattedTextControl(self._footer_view), dont_extend_height=True),
            ]
        )

    def _editor_padding(self) -> int:
        setting = self._host.session.settings.get_editor_padding_x()
        return padding_columns(setting, self._host.columns())

    def _border_style(self) -> str:
        host = self._host
        if host.dialog is None and host.buffer.text.startswith("!"):
            colour = host.theme.style("bashMode")
        else:
            colour = host.theme.thinking_border(host.session.thinking_level)
        return f"fg:{colour}" if colour else ""

    def _has_live_content(self) -> bool:
        return bool(self._live_view())

    def _live_view(self) -> Any:
        """The live region's text, computed once per render."""
        host = self._host
        counter = host.render_count()
        if self._live_cache is None or self._live_cache[0] != counter:
            text = live_text(
                host.state, host.transcript, host.ui, host.session.is_streaming, host.columns()
            )
            self._live_cache = (counter, ansi_fragments(text))
        return self._live_cache[1]

    def _below_view(self) -> Any:
        lines = self._host.ui.widget_lines("belowEditor", self._host.columns())
        return ansi_fragments("\n".join(lines))

    def _footer_view(self) -> StyleAndTextTuples:
        # the footer reads the git branch and sums the session's usage: computed again only
        # after something asked for a redraw (an event, a status), not for each key press
        key = (self._generation, self._host.columns())
        if self._footer_cache is None or self._footer_cache[0] != key:
            self._footer_cache = (key, self._compute_footer(key[1]))
        return self._footer_cache[1]

    def _compute_footer(self, width: int) -> StyleAndTextTuples:
        host = self._host
        factory = host.ui.footer_factory
        if factory is not None:
            try:
                drawn = factory(footer_data(host.session, host.ui.statuses, width))
                text = drawn if isinstance(drawn, str) else "\n".join(str(x) for x in drawn)
                return list(ansi_fragments(text))
            except Exception as error:
                host.ui.footer_factory = None
                host.report_render_error("footer", error)
        return footer_lines(host.session, host.ui.statuses, width)

    def _dialog_view(self) -> StyleAndTextTuples:
        dialog = self._host.dialog
        return dialog.view(time.monotonic()) if dialog is not None else []
