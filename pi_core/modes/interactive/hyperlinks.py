"""Whether the terminal shows OSC 8 hyperlinks: pi's rule, an allow-list of known terminals."""

from __future__ import annotations

import os
from collections.abc import Mapping

# TERM_PROGRAM values, and variables a terminal sets in its shells, of terminals that show OSC 8
_PROGRAMS = ("kitty", "ghostty", "wezterm", "iterm.app", "vscode", "alacritty")
_VARIABLES = ("KITTY_WINDOW_ID", "GHOSTTY_RESOURCES_DIR", "WEZTERM_PANE", "ITERM_SESSION_ID")


def supports_hyperlinks(env: Mapping[str, str] | None = None) -> bool:
    """True on terminals known to show OSC 8 links; never inside tmux or screen (they drop
    them), and not on unknown terminals, where a link would show as its text alone."""
    env = os.environ if env is None else env
    term = env.get("TERM", "").lower()
    if env.get("TMUX") or term.startswith(("tmux", "screen")):
        return False
    program = env.get("TERM_PROGRAM", "").lower()
    return program in _PROGRAMS or "ghostty" in term or any(env.get(v) for v in _VARIABLES)
