"""Plugin widgets above and below the editor: fixed lines, or components drawn at each frame."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pi_core.plugins.ui import WidgetFactory, WidgetPlacement

WIDGET_LINES = 10
TRUNCATED = "... (widget truncated)"


class RenderHost:
    """What a widget factory gets as `tui`: a way to ask for a redraw."""

    def __init__(self, request_render: Callable[[], None]) -> None:
        self._request_render = request_render

    def request_render(self) -> None:
        """Draw the live region again on the next frame (the component changed)."""
        self._request_render()


@dataclass
class _Widget:
    placement: WidgetPlacement
    lines: list[str] | None = None
    component: Any = None


class Widgets:
    """The widgets by key; a component that fails to draw is dropped and reported."""

    def __init__(
        self,
        host: RenderHost,
        theme: Callable[[], Any],
        on_error: Callable[[str, BaseException], None],
    ) -> None:
        self._host = host
        self._theme = theme
        self._on_error = on_error
        self._by_key: dict[str, _Widget] = {}

    def set(
        self, key: str, content: list[str] | WidgetFactory | None, placement: WidgetPlacement
    ) -> None:
        """Show lines (at most 10) or `content(tui, theme)`'s component; None removes it."""
        self.remove(key)
        if content is None:
            return
        if callable(content):
            self._by_key[key] = _Widget(placement, component=content(self._host, self._theme()))
            return
        lines = [str(line) for line in content]
        if len(lines) > WIDGET_LINES:
            lines = [*lines[:WIDGET_LINES], TRUNCATED]
        self._by_key[key] = _Widget(placement, lines=lines)

    def remove(self, key: str) -> None:
        """Take a widget away, disposing of its component."""
        widget = self._by_key.pop(key, None)
        if widget is not None and widget.component is not None:
            dispose = getattr(widget.component, "dispose", None)
            if callable(dispose):
                with contextlib.suppress(Exception):
                    dispose()

    def clear(self) -> None:
        """Take every widget away, disposing of the components."""
        for key in list(self._by_key):
            self.remove(key)

    def has(self, placement: WidgetPlacement) -> bool:
        """Whether any widget is placed there."""
        return any(widget.placement == placement for widget in self._by_key.values())

    def lines(self, placement: WidgetPlacement, width: int) -> list[str]:
        """Every widget's lines for one placement, in key order (components drawn now)."""
        found: list[str] = []
        for key in sorted(self._by_key):
            widget = self._by_key[key]
            if widget.placement != placement:
                continue
            if widget.lines is not None:
                found.extend(widget.lines)
                continue
            try:
                drawn = widget.component.render(width)
                found.extend(drawn.split("\n") if isinstance(drawn, str) else map(str, drawn))
            except Exception as error:
                self.remove(key)
                self._on_error(f"widget {key}", error)
        return found
