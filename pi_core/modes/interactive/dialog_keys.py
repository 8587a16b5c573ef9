"""The keys of an open dialog (move, choose, cancel) and of a plugin's custom component (cancel)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from prompt_toolkit.filters import Condition
from prompt_toolkit.key_binding import KeyBindings

from pi_core.modes.interactive.dialogs import Dialog


def dialog_keys(
    dialog: Callable[[], Dialog | None],
    custom_open: Callable[[], bool],
    cancel_custom: Callable[[], None],
) -> KeyBindings:
    """Bindings active while `dialog()` is open, or while a custom component is shown."""
    kb = KeyBindings()
    is_open = Condition(lambda: dialog() is not None)
    is_list = Condition(lambda: _kind(dialog()) == "select")
    is_editor = Condition(lambda: _kind(dialog()) == "editor")

    def current() -> Dialog:
        shown = dialog()
        assert shown is not None
        return shown

    @kb.add("up", filter=is_list)
    @kb.add("k", filter=is_list)
    def _up(event: Any) -> None:
        current().move(-1)

    @kb.add("down", filter=is_list)
    @kb.add("j", filter=is_list)
    def _down(event: Any) -> None:
        current().move(1)

    @kb.add("enter", filter=is_open, eager=True)
    def _confirm(event: Any) -> None:
        current().confirm()

    @kb.add("c-j", filter=is_editor, eager=True)
    def _newline(event: Any) -> None:
        event.current_buffer.insert_text("\n")

    @kb.add("escape", filter=is_open, eager=True)
    @kb.add("c-c", filter=is_open, eager=True)
    def _cancel(event: Any) -> None:
        current().answer(None)

    @kb.add("escape", filter=Condition(custom_open))
    @kb.add("c-c", filter=Condition(custom_open))
    def _cancel_custom(event: Any) -> None:
        cancel_custom()

    return kb


def _kind(dialog: Dialog | None) -> str | None:
    return dialog.kind if dialog is not None else None
