"""Plugins' raw input listeners (`ctx.ui.on_terminal_input`): they see keys first."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

from prompt_toolkit.input.vt100_parser import Vt100Parser
from prompt_toolkit.key_binding.key_processor import KeyPress, KeyProcessor
from prompt_toolkit.keys import Keys

from pi_core.plugins.ui import TerminalInputHandler

_NOT_INPUT = {Keys.CPRResponse, Keys.Ignore}  # the terminal's replies, not the user's keys


class InputListeners:
    """Handlers called in order with each key's raw text, before the key bindings see it.

    A handler returns None (pass the key on), `{"consume": True}` (drop it) or
    `{"data": text}` (pass `text` on instead, parsed again into keys). One that raises is
    reported and removed (not reported again at every key); the key goes on.
    """

    def __init__(self, on_error: Callable[[BaseException], None]) -> None:
        self._handlers: list[TerminalInputHandler] = []
        self._on_error = on_error

    def add(self, handler: TerminalInputHandler) -> Callable[[], None]:
        """Listen; returns the function that stops listening."""
        self._handlers.append(handler)

        def unsubscribe() -> None:
            with contextlib.suppress(ValueError):
                self._handlers.remove(handler)

        return unsubscribe

    def clear(self) -> None:
        """Stop every listener."""
        self._handlers.clear()

    def filter(self, presses: list[KeyPress]) -> list[KeyPress]:
        """The key presses left once every handler has seen them."""
        if not self._handlers:
            return presses
        kept: list[KeyPress] = []
        for press in presses:
            if press.key in _NOT_INPUT:
                kept.append(press)
                continue
            data = self._run(press.data)
            if data is None:
                continue
            kept.extend([press] if data == press.data else _parse(data))
        return kept

    def _run(self, data: str) -> str | None:
        for handler in list(self._handlers):
            try:
                result: Any = handler(data)
            except Exception as error:
                with contextlib.suppress(ValueError):
                    self._handlers.remove(handler)
                self._on_error(error)
                continue
            if not isinstance(result, dict):
                continue
            if result.get("consume"):
                return None
            if isinstance(result.get("data"), str):
                data = result["data"]
        return data or None


def _parse(data: str) -> list[KeyPress]:
    presses: list[KeyPress] = []
    parser = Vt100Parser(presses.append)
    parser.feed(data)
    parser.flush()
    return presses


def install(processor: KeyProcessor, listeners: InputListeners) -> None:
    """Pass the keys read from the terminal through the listeners first."""
    feed_multiple = processor.feed_multiple

    def filtered(key_presses: list[KeyPress], first: bool = False) -> None:
        # `first` puts back keys the processor already took: they were seen once
        feed_multiple(key_presses if first else listeners.filter(key_presses), first)

    processor.feed_multiple = filtered  # type: ignore[method-assign]
