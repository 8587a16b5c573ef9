"""The keys the expanded header lists."""

from __future__ import annotations

KEY_HINTS = [
    ("enter", "send (queue a steering message while the agent works)"),
    ("alt+enter", "queue a follow-up message"),
    ("shift+enter, ctrl+j, \\+enter", "new line"),
    ("escape", "interrupt / close the menu"),
    ("ctrl+c", "clear the editor; twice to exit"),
    ("ctrl+d", "exit (empty editor)"),
    ("ctrl+z", "suspend"),
    ("shift+tab", "cycle thinking level"),
    ("ctrl+p", "cycle models"),
    ("shift+ctrl+p", "cycle models backwards"),
    ("ctrl+t", "hide / show thinking"),
    ("ctrl+o", "expand / collapse tool output and the header"),
    ("ctrl+g", "external editor"),
    ("ctrl+r", "search history"),
    ("ctrl+_", "undo"),
    ("alt+up", "edit queued messages"),
    ("/", "commands"),
    ("!cmd / !!cmd", "run a shell command (!! keeps it out of the context)"),
    ("@", "fuzzy file search"),
    ("tab", "complete a path"),
]
"""(key, what it does) for the expanded header."""
