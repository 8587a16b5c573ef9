"""Whether `pi ARGS` can draw the REPL's editor before the plugins load (checked by every run, so
this module imports nothing else of the REPL)."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable

# Options that leave the REPL out (print, rpc, help…) or open it behind a picker (`-r`).
NOT_THE_REPL_AT_ONCE = frozenset(("-p", "--print", "--mode", "-h", "--help", "-v", "--version",
                                  "-r", "--resume", "--list-models", "--export"))  # fmt: skip


def early_start_wanted(args: Iterable[str], built_in_options: set[str]) -> bool:
    """True when `pi ARGS` opens the REPL in a terminal and names no option a plugin could own,
    so the editor can be drawn before the plugins load."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        return False
    if os.environ.get("TERM", "") == "dumb":
        return False
    for arg in args:
        if arg == "--":
            break
        if not arg.startswith("-") or arg == "-":
            continue
        name = arg.split("=", 1)[0]
        if name not in built_in_options:
            return False  # a plugin's flag (or a typo, which click reports as usual)
        if name in NOT_THE_REPL_AT_ONCE:
            return False
    return True
