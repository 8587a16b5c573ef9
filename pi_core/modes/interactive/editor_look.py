"""The editor's look from the settings: its horizontal padding and the completion menu's rows."""

from __future__ import annotations

from collections.abc import Callable

from prompt_toolkit.filters import has_completions, is_done
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.layout import ConditionalContainer, Dimension, ScrollOffsets, Window
from prompt_toolkit.layout.containers import WindowRenderInfo
from prompt_toolkit.layout.controls import UIContent
from prompt_toolkit.layout.margins import Margin, ScrollbarMargin
from prompt_toolkit.layout.menus import CompletionsMenuControl


def padding_columns(setting: int, columns: int) -> int:
    """`editorPaddingX` as drawn: never negative, and at most half of what leaves one column."""
    return max(0, min(setting, (columns - 1) // 2))


def menu_rows(setting: int) -> int:
    """`autocompleteMaxVisible` as drawn: between 3 and 20 rows."""
    return max(3, min(20, setting))


class PaddingMargin(Margin):
    """Blank columns on one side of the editor's text."""

    def __init__(self, width: Callable[[], int]) -> None:
        self._width = width

    def get_width(self, get_ui_content: Callable[[], UIContent]) -> int:
        """The padding's current width."""
        return self._width()

    def create_margin(
        self, window_render_info: WindowRenderInfo, width: int, height: int
    ) -> StyleAndTextTuples:
        """`width` spaces on each of the window's rows."""
        return [("", (" " * width + "\n") * height)]


class CompletionMenu(ConditionalContainer):
    """prompt_toolkit's completion menu, with as many rows as `max_visible()` says at each draw."""

    def __init__(self, max_visible: Callable[[], int]) -> None:
        super().__init__(
            content=Window(
                content=CompletionsMenuControl(),
                width=Dimension(min=8),
                height=lambda: Dimension(min=1, max=max_visible()),
                scroll_offsets=ScrollOffsets(top=1, bottom=1),
                right_margins=[ScrollbarMargin(display_arrows=False)],
                dont_extend_width=True,
                style="class:completion-menu",
                z_index=10**8,
            ),
            filter=has_completions & ~is_done,
        )
