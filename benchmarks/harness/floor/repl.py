"""The REPL's floor: prompt_toolkit drawing an editor and a footer that names the model."""

from __future__ import annotations

import os
from typing import Any

from .model import Model


def repl() -> int:
    """No arguments: an editor between two rules and a footer naming the model."""
    from prompt_toolkit.application import Application
    from prompt_toolkit.buffer import Buffer
    from prompt_toolkit.key_binding import KeyBindings
    from prompt_toolkit.layout import HSplit, Layout, Window
    from prompt_toolkit.layout.controls import BufferControl, FormattedTextControl

    model = Model(None)
    keys = KeyBindings()

    @keys.add("c-c")
    @keys.add("c-d")
    def _quit(event: Any) -> None:
        event.app.exit()

    editor = Buffer(multiline=True)
    footer = f"{os.getcwd()}  {model.id}"
    layout = HSplit([
        Window(char="─", height=1),
        Window(BufferControl(editor), height=1, wrap_lines=True),
        Window(char="─", height=1),
        Window(FormattedTextControl(footer), height=1),
    ])  # fmt: skip
    Application(layout=Layout(layout, focused_element=editor), key_bindings=keys).run()
    return 0
