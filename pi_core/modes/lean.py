"""Lean start and exit for the agent modes (print, json, rpc).

Start-up builds long-lived objects only (modules, plugins, models, the session), so the cyclic GC
stays off while it runs; `startup_done` then freezes them (no later collection rescans them) and
turns the GC back on. At the end, once the session is closed, `exit_process` flushes stdout and
stderr and leaves with `os._exit`: the interpreter's teardown (full GC passes over every object
and module) is pure cost for a process that is about to end.
"""

from __future__ import annotations

import gc
import os
import sys
from typing import NoReturn

_lean_exit = False


def begin_startup() -> None:
    """Called first by the `pi` console script: no GC passes while start-up builds its objects."""
    global _lean_exit
    _lean_exit = True
    gc.disable()


def startup_done() -> None:
    """Freeze what start-up built and collect as usual from now on (every agent mode calls this
    once its session is open; until then the GC is off)."""
    gc.freeze()
    gc.enable()


def exit_process(code: int) -> NoReturn:
    """Flush stdout and stderr, then end the process without tearing the heap down.

    Only in the `pi` console script (an embedding caller gets SystemExit as before). A failed
    flush of stdout (a closed pipe) turns a success into exit code 120, as Python's own exit does.
    """
    if not _lean_exit:
        sys.exit(code)
    if "logging" in sys.modules:
        import logging

        logging.shutdown()
    records = sys.modules.get("pi_core.modes.stdout")
    if records is not None and not records.flush_records() and code == 0:
        code = 120
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            if stream is sys.stdout and code == 0:
                code = 120
    os._exit(code)
