"""Asking the terminal for distinct modified-key codes, so Shift+Enter is not Enter.

As pi does: query kitty's keyboard protocol (`CSI ? u`); a terminal that answers gets its
flags pushed (`CSI > 1 u`: disambiguate; pi also asks for key releases and alternate keys,
which nothing here reads), and one that stays silent for 150 ms gets xterm's modifyOtherKeys
mode 2 (`CSI > 4 ; 2 m`, which tmux with `extended-keys on` understands). Both are undone on
exit, on Ctrl+Z and around an external editor, and asked for again afterwards.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent

from pi_core.modes.interactive.modified_keys import KITTY_REPLY

QUERY = "\x1b[?u"
KITTY_PUSH = "\x1b[>1u"
KITTY_POP = "\x1b[<u"
MODIFY_OTHER_KEYS_ON = "\x1b[>4;2m"
MODIFY_OTHER_KEYS_OFF = "\x1b[>4;0m"
FALLBACK_SECONDS = 0.15


class KeyboardProtocol:
    """The enhanced key reporting this REPL asked the terminal for, and its undoing."""

    def __init__(self, write: Callable[[str], None]) -> None:
        self._write = write
        self.kitty = False
        self.modify_other_keys = False
        self._timer: asyncio.TimerHandle | None = None

    def start(self) -> None:
        """Query kitty's protocol; fall back to modifyOtherKeys if no answer comes in time."""
        if self.kitty or self.modify_other_keys or self._timer is not None:
            return
        self._write(QUERY)
        self._timer = asyncio.get_running_loop().call_later(FALLBACK_SECONDS, self._fallback)

    def kitty_answered(self) -> None:
        """The terminal answered the query: push kitty's flags."""
        if self.kitty:
            return
        self._cancel_timer()
        if self.modify_other_keys:  # a late answer: one mode at a time
            self._write(MODIFY_OTHER_KEYS_OFF)
            self.modify_other_keys = False
        self.kitty = True
        self._write(KITTY_PUSH)

    def stop(self) -> None:
        """Give the terminal back its plain key codes."""
        self._cancel_timer()
        if self.kitty:
            self._write(KITTY_POP)
            self.kitty = False
        if self.modify_other_keys:
            self._write(MODIFY_OTHER_KEYS_OFF)
            self.modify_other_keys = False

    def key_bindings(self) -> KeyBindings:
        """The binding that takes the terminal's answer (it must not reach the editor)."""
        kb = KeyBindings()

        @kb.add(KITTY_REPLY, eager=True)
        def _answered(event: KeyPressEvent) -> None:
            self.kitty_answered()

        return kb

    def _fallback(self) -> None:
        self._timer = None
        if not self.kitty and not self.modify_other_keys:
            self.modify_other_keys = True
            self._write(MODIFY_OTHER_KEYS_ON)

    def _cancel_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
