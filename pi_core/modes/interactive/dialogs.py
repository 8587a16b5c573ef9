"""Dialogs that take the editor's place: select, confirm, input and multi-line editor."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from prompt_toolkit.buffer import Buffer
from prompt_toolkit.formatted_text import StyleAndTextTuples

from pi_core.terminal_text import sanitize


@dataclass
class Dialog:
    """One open dialog; `future` resolves to the answer (None when cancelled)."""

    kind: str  # "select" | "input" | "editor"
    title: str
    options: list[str] = field(default_factory=list)
    message: str = ""
    selected: int = 0
    prefill: str = ""
    buffer: Buffer | None = None
    future: asyncio.Future[Any] = field(
        default_factory=lambda: asyncio.get_event_loop().create_future()
    )
    deadline: float | None = None
    password: bool = False  # the text field shows `*` for each character

    @property
    def takes_text(self) -> bool:
        """Whether the dialog has a text field."""
        return self.kind in ("input", "editor")

    def answer(self, value: Any) -> None:
        """Resolve the dialog (once)."""
        if not self.future.done():
            self.future.set_result(value)

    def move(self, step: int) -> None:
        """Move the selection in a list."""
        if self.options:
            self.selected = (self.selected + step) % len(self.options)

    def confirm(self) -> None:
        """Enter: the selected option, or the typed text."""
        if self.kind == "select":
            self.answer(self.options[self.selected] if self.options else None)
        elif self.buffer is not None:
            self.answer(self.buffer.text)

    def view(self, now: float) -> StyleAndTextTuples:
        """The dialog's text (the input buffer is drawn by its own window below this)."""
        title = sanitize(self.title)  # a plugin's words
        if self.deadline is not None:
            title += f" ({max(0, int(self.deadline - now + 0.999))}s)"
        lines: StyleAndTextTuples = [("class:dialog.title", title), ("", "\n")]
        if self.message:
            lines += [("", sanitize(self.message)), ("", "\n")]
        for index, option in enumerate(self.options):
            marker = "→ " if index == self.selected else "  "
            style = "class:dialog.selected" if index == self.selected else ""
            lines += [(style, marker + sanitize(option)), ("", "\n")]
        hint = ("↑↓ navigate  enter select  escape cancel" if self.kind == "select"
                else "enter submit  escape cancel" if self.kind == "input"
                else "enter submit  ctrl+j newline  escape cancel")  # fmt: skip
        lines.append(("class:dialog.hint", hint))
        return lines
