"""A searchable list dialog: rows filtered by the typed query, its own keys, a hint line."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent

from pi_core.modes.interactive.dialogs import Dialog
from pi_core.terminal_text import sanitize

if TYPE_CHECKING:
    from pi_core.modes.interactive.host import DialogHost

MAX_VISIBLE = 12


@dataclass
class Row:
    """One line of a picker: what choosing it returns, and how it is drawn."""

    value: Any
    text: str
    style: str = ""
    search_text: str = ""

    def __post_init__(self) -> None:
        # names, first messages and labels come from files and plugins
        self.text = sanitize(self.text)


@dataclass
class Picker(Dialog):
    """A list that filters itself as the user types; Enter answers the selected row's value."""

    source: Callable[[str], list[Row]] = lambda query: []
    hint: str = "type to search  ↑↓ navigate  enter select  escape cancel"
    status: Callable[[], str] = lambda: ""
    key_bindings: KeyBindings = field(default_factory=KeyBindings)
    max_visible: int = MAX_VISIBLE
    on_move: Callable[[Row | None], None] | None = None
    _rows: list[Row] = field(default_factory=list)
    _query: str | None = None

    def __post_init__(self) -> None:
        self.kind = "picker"
        kb = self.key_bindings
        for key, step in (("up", -1), ("down", 1), ("pageup", -self.max_visible),
                          ("pagedown", self.max_visible)):  # fmt: skip
            kb.add(key, eager=True)(self._mover(step))

    def _mover(self, step: int) -> Callable[[KeyPressEvent], None]:
        def move(event: KeyPressEvent) -> None:
            self.move(step)

        return move

    @property
    def takes_text(self) -> bool:
        """A picker's text field is its search box."""
        return True

    @property
    def query(self) -> str:
        """What the user typed in the search box."""
        return self.buffer.text if self.buffer is not None else self.prefill

    def rows(self) -> list[Row]:
        """The rows matching the query (recomputed when the query changed or on refresh)."""
        query = self.query
        if query != self._query:
            self._query = query
            self._rows = self.source(query)
            self.selected = min(self.selected, max(0, len(self._rows) - 1))
        return self._rows

    def refresh(self, select_value: Any = None) -> None:
        """Recompute the rows (after a filter or the data changed), keeping a selection."""
        self._query = None
        rows = self.rows()
        if select_value is not None:
            for index, row in enumerate(rows):
                if row.value == select_value:
                    self.selected = index
                    break

    def current(self) -> Row | None:
        """The selected row, if any."""
        rows = self.rows()
        return rows[self.selected] if rows else None

    def move(self, step: int) -> None:
        """Move the selection, wrapping at the ends for single steps."""
        rows = self.rows()
        if not rows:
            return
        if abs(step) == 1:
            self.selected = (self.selected + step) % len(rows)
        else:
            self.selected = max(0, min(len(rows) - 1, self.selected + step))
        if self.on_move is not None:
            self.on_move(self.current())

    def confirm(self) -> None:
        """Enter: the selected row's value (nothing happens on an empty list)."""
        row = self.current()
        if row is not None:
            self.answer(row.value)

    def view(self, now: float) -> StyleAndTextTuples:
        """Title, message, the visible window of rows, a counter and the hint."""
        rows = self.rows()
        lines: StyleAndTextTuples = [("class:dialog.title", self.title), ("", "\n")]
        if self.message:
            lines += [("class:dialog.hint", self.message), ("", "\n")]
        start = max(0, min(self.selected - self.max_visible // 2, len(rows) - self.max_visible))
        for index in range(start, min(len(rows), start + self.max_visible)):
            row = rows[index]
            chosen = index == self.selected
            style = "class:dialog.selected " + row.style if chosen else row.style
            lines += [(style, ("→ " if chosen else "  ") + row.text), ("", "\n")]
        if not rows:
            lines += [("class:dialog.hint", "  (no matches)"), ("", "\n")]
        counter = f"({self.selected + 1 if rows else 0}/{len(rows)})"
        extra = self.status()
        lines.append(("class:dialog.hint", f"{counter}{'  ' + extra if extra else ''}"))
        lines += [("", "\n"), ("class:dialog.hint", self.hint)]
        return lines


async def run_dialog(app: DialogHost, dialog: Dialog) -> Any:
    """Show a dialog in the editor's place and wait for its answer (None when cancelled)."""
    app.open_dialog(dialog)
    try:
        return await dialog.future
    finally:
        app.close_dialog(dialog)


async def choose(app: DialogHost, title: str, options: list[str], message: str = "") -> Any:
    """A plain select dialog (no search): the chosen option or None."""
    return await run_dialog(app, Dialog("select", title, options, message=message))


async def ask_text(app: DialogHost, title: str, prefill: str = "", message: str = "") -> Any:
    """A one-line input dialog: the text or None."""
    return await run_dialog(app, Dialog("input", title, message=message, prefill=prefill))


def matches_tokens(query: str, text: str) -> bool:
    """Whether every whitespace-separated word of the query occurs in the text (any case)."""
    haystack = text.lower()
    return all(token in haystack for token in query.lower().split())


def dialog_own_keys(app: DialogHost) -> Any:
    """The open dialog's own keys (a picker's), consulted after the app's dialog keys."""
    from prompt_toolkit.key_binding import DynamicKeyBindings

    empty = KeyBindings()

    def current() -> KeyBindings:
        keys = getattr(app.dialog, "key_bindings", None)
        return keys if isinstance(keys, KeyBindings) else empty

    return DynamicKeyBindings(current)
