"""Key bindings of the editor and the app, on top of prompt_toolkit's emacs keys.

The bindings call an `Actions` object, so tests can drive them on a pipe input without a
session. A plugin shortcut is added last: prompt_toolkit runs the last matching binding, so a
plugin key wins over a built-in one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from prompt_toolkit.filters import (
    Filter,
    emacs_insert_mode,
    has_completions,
    is_searching,
)
from prompt_toolkit.input.ansi_escape_sequences import ANSI_SEQUENCES
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.key_binding.bindings.named_commands import get_by_name
from prompt_toolkit.keys import Keys

from pi_core.modes.interactive.completion_pick import (
    chosen,
    command_typed_ahead,
    take,
    takes_command_name,
)
from pi_core.modes.interactive.editor import strip_continuation
from pi_core.modes.interactive.history_rule import kept_in_history

# Shift+Enter as xterm (modifyOtherKeys) and kitty (CSI u) send it: a new line, not a submit.
for _sequence in ("\x1b[27;2;13~", "\x1b[13;2u"):
    ANSI_SEQUENCES[_sequence] = Keys.ControlJ

# prompt_toolkit has no Ctrl+Shift+letter keys; the terminals that send Shift+Ctrl+P distinctly
# (kitty's CSI u, xterm's modifyOtherKeys) have it arrive as F24, a key no keyboard sends here.
CTRL_SHIFT_P = Keys.F24
for _sequence in ("\x1b[112;6u", "\x1b[80;6u", "\x1b[27;6;80~", "\x1b[27;6;112~"):
    ANSI_SEQUENCES[_sequence] = CTRL_SHIFT_P


class ViewActions(Protocol):
    """What the keys change in the view, the model and the queue."""

    def cycle_thinking(self) -> None:
        """Shift+Tab."""

    def cycle_model(self, backward: bool) -> None:
        """Ctrl+P."""

    def toggle_thinking(self) -> None:
        """Ctrl+T."""

    def toggle_expanded(self) -> None:
        """Ctrl+O."""

    def dequeue(self) -> None:
        """Alt+Up: pull queued messages back into the editor."""

    def external_editor(self) -> None:
        """Ctrl+G."""


class EditorActions(Protocol):
    """What the editor's keys ask: paste markers and status lines."""

    def paste(self, text: str) -> str:
        """Return what a paste inserts (a marker for a large one)."""

    def expand_text(self, text: str) -> str:
        """Return the editor text with paste markers expanded."""

    def delete_marker(self, text: str, cursor: int) -> tuple[int, int] | None:
        """Return the span of a paste marker ending at the cursor."""

    def notify(self, message: str) -> None:
        """Show a status line."""


class Actions(ViewActions, EditorActions, Protocol):
    """What the keys do; the app implements it."""

    def submit(self, text: str, follow_up: bool) -> None:
        """Send (or queue) the editor's text."""

    def interrupt(self) -> bool:
        """Esc: abort what runs; return False when there was nothing to abort."""

    def exit(self) -> None:
        """Leave the REPL."""

    def escape_on_empty(self) -> None:
        """Esc on an empty editor with nothing to abort (twice: doubleEscapeAction)."""


DOUBLE_PRESS_SECONDS = 0.5


def to_prompt_toolkit_keys(spec: str) -> tuple[str, ...]:
    """pi's key syntax (`ctrl+x`, `alt+enter`, `shift+tab`, `f5`) as prompt_toolkit keys."""
    parts = [p.strip().lower() for p in spec.split("+") if p.strip()]
    if not parts:
        raise ValueError(f"empty key {spec!r}")
    key = {"esc": "escape", "return": "enter", "pageup": "pageup", "pagedown": "pagedown",
           "space": " "}.get(parts[-1], parts[-1])  # fmt: skip
    mods = set(parts[:-1])
    unknown = mods - {"ctrl", "alt", "shift"}
    if unknown:
        raise ValueError(f"unknown modifier in {spec!r}")
    if key == "enter":
        key = "c-m"
    name = key
    if mods == {"ctrl", "shift"} and key == "p":
        name = CTRL_SHIFT_P.value
    elif "ctrl" in mods and "shift" in mods:
        name = f"c-s-{key}"
    elif "ctrl" in mods:
        name = f"c-{key}"
    elif "shift" in mods:
        name = f"s-{key}" if len(key) > 1 else key.upper()
    return ("escape", name) if "alt" in mods else (name,)


def build_key_bindings(
    actions: Actions,
    *,
    dialog_open: Filter,
    shortcuts: dict[str, Callable[[], Any]] | None = None,
    clock: Callable[[], float] | None = None,
) -> KeyBindings:
    """Create the app's key bindings (the editor's emacs keys come from prompt_toolkit)."""
    import time

    now = clock or time.monotonic
    kb = KeyBindings()
    editing = ~dialog_open & ~is_searching
    last_ctrl_c = [-10.0]
    dismissed: list[str | None] = [None]  # the text whose menu Esc closed

    @kb.add("enter", filter=editing & has_completions)
    def _accept_completion(event: KeyPressEvent) -> None:
        buffer = event.current_buffer
        completion = chosen(buffer)
        if completion is None:
            return
        runs = takes_command_name(buffer)
        take(buffer, completion)
        if runs:
            _send(event, follow_up=False)

    @kb.add("tab", filter=editing & has_completions)
    def _take_completion(event: KeyPressEvent) -> None:
        buffer = event.current_buffer
        completion = chosen(buffer)
        if completion is not None:
            take(buffer, completion)

    @kb.add("enter", filter=editing & ~has_completions)
    def _submit(event: KeyPressEvent) -> None:
        buffer = event.current_buffer
        edited = strip_continuation(buffer.text, buffer.cursor_position)
        if edited is not None:
            text, cursor = edited
            buffer.text = text
            buffer.cursor_position = cursor
            return
        if buffer.text != dismissed[0]:
            completion = command_typed_ahead(buffer)
            if completion is not None:  # Enter came before the menu could open
                take(buffer, completion)
        _send(event, follow_up=False)

    @kb.add("escape", "enter", filter=editing)
    def _follow_up(event: KeyPressEvent) -> None:
        _send(event, follow_up=True)

    def _send(event: KeyPressEvent, follow_up: bool) -> None:
        buffer = event.current_buffer
        raw = buffer.text
        if not raw.strip():
            return
        if kept_in_history(raw):
            buffer.append_to_history()
        text = actions.expand_text(raw).strip()
        buffer.reset()
        actions.submit(text, follow_up)

    @kb.add("c-j", filter=editing)
    def _newline(event: KeyPressEvent) -> None:
        event.current_buffer.insert_text("\n")

    @kb.add("escape", filter=editing)
    def _escape(event: KeyPressEvent) -> None:
        buffer = event.current_buffer
        if buffer.complete_state is not None:
            buffer.cancel_completion()
            dismissed[0] = buffer.text  # Enter now sends this text as typed, as in pi
            return
        if actions.interrupt():
            return
        if buffer.text.startswith("!"):
            buffer.reset()
        elif not buffer.text:
            actions.escape_on_empty()

    @kb.add("c-c", filter=editing)
    def _clear(event: KeyPressEvent) -> None:
        moment = now()
        if moment - last_ctrl_c[0] < DOUBLE_PRESS_SECONDS:
            actions.exit()
            return
        last_ctrl_c[0] = moment
        event.current_buffer.reset()
        actions.notify("Press ctrl+c again to exit")

    @kb.add("c-d", filter=editing)
    def _exit_or_delete(event: KeyPressEvent) -> None:
        buffer = event.current_buffer
        if not buffer.text:
            actions.exit()
        else:
            buffer.delete(1)

    @kb.add("c-z", filter=editing)
    def _suspend(event: KeyPressEvent) -> None:
        event.app.suspend_to_background()

    @kb.add("s-tab", filter=editing)
    def _thinking(event: KeyPressEvent) -> None:
        actions.cycle_thinking()

    @kb.add("c-p", filter=editing)
    def _model(event: KeyPressEvent) -> None:
        actions.cycle_model(backward=False)

    @kb.add(CTRL_SHIFT_P, filter=editing)
    def _model_back(event: KeyPressEvent) -> None:
        actions.cycle_model(backward=True)

    @kb.add("c-t", filter=editing)
    def _toggle_thinking(event: KeyPressEvent) -> None:
        actions.toggle_thinking()

    @kb.add("c-o", filter=editing)
    def _expand(event: KeyPressEvent) -> None:
        actions.toggle_expanded()

    @kb.add("escape", "up", filter=editing)
    def _dequeue(event: KeyPressEvent) -> None:
        actions.dequeue()

    @kb.add("c-g", filter=editing)
    def _editor(event: KeyPressEvent) -> None:
        actions.external_editor()

    @kb.add(Keys.BracketedPaste, filter=editing)
    def _paste(event: KeyPressEvent) -> None:
        buffer = event.current_buffer
        inserted = actions.paste(event.data)
        before = buffer.document.text_before_cursor
        if (
            inserted[:1] in ("/", "~", ".")
            and before
            and (before[-1].isalnum() or before[-1] == "_")
        ):
            inserted = " " + inserted
        buffer.insert_text(inserted)

    @kb.add("backspace", filter=editing)
    def _backspace(event: KeyPressEvent) -> None:
        buffer = event.current_buffer
        span = actions.delete_marker(buffer.text, buffer.cursor_position)
        if span is None:
            buffer.delete_before_cursor(1)
        else:
            start, end = span
            buffer.text = buffer.text[:start] + buffer.text[end:]
            buffer.cursor_position = start
        if buffer.completer is not None and buffer.complete_while_typing():
            buffer.start_completion()  # as after typing: the menu follows the shorter text

    # fish-style undo: word characters typed one after the other make a single undo step
    after_word: list[tuple[str, int] | None] = [None]

    def _starts_undo_step(event: KeyPressEvent) -> bool:
        buffer = event.current_buffer
        continues = _is_word(event.data) and after_word[0] == (buffer.text, buffer.cursor_position)
        return not continues

    self_insert = get_by_name("self-insert")

    @kb.add(Keys.Any, filter=editing & emacs_insert_mode, save_before=_starts_undo_step)
    def _insert(event: KeyPressEvent) -> None:
        self_insert.handler(event)
        buffer = event.current_buffer
        after_word[0] = (buffer.text, buffer.cursor_position) if _is_word(event.data) else None

    for key, handler in (shortcuts or {}).items():
        try:
            keys = to_prompt_toolkit_keys(key)
        except ValueError as error:
            actions.notify(f"Warning: shortcut {key!r} ignored: {error}")
            continue
        kb.add(*keys, filter=editing, eager=True)(_run_shortcut(handler))
    return kb


def _is_word(data: str) -> bool:
    return bool(data) and all(char.isalnum() or char == "_" for char in data)


def _run_shortcut(handler: Callable[[], Any]) -> Callable[[KeyPressEvent], None]:
    def run(event: KeyPressEvent) -> None:
        handler()

    return run
