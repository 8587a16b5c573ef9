"""`--session ID` whose id only another project's sessions hold: fork it here, or stop.

pi 0.73.1 looks an id up among the start folder's sessions first, then among all projects'.
Found only elsewhere, it says so, asks "fork into the current directory? [y/N]" on stdin in every
mode (the words go to stdout in the REPL, to stderr where stdout carries the answer), and forks
on "y"/"yes" (any case); any other answer ends the run with "Aborted." and exit code 0, and so
does a stdin that ends without an answer (pi says nothing more then).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TextIO

from pi_core.modes.run_options import RunOptions


def found_elsewhere(options: RunOptions) -> Path | None:
    """The session file `--session` names when it is an id that only another project's
    sessions hold (not the start folder's, not a path); None otherwise."""
    reference = options.session
    if not reference or options.no_session or options.fork:
        return None
    if reference.endswith(".jsonl") or os.sep in reference or "/" in reference:
        return None
    if Path(reference).expanduser().is_file():
        return None
    from pi_core.config.paths import agent_dir
    from pi_core.modes.startup import session_matches, sessions_folder
    from pi_core.resources.settings import SettingsManager
    from pi_core.session.paths import sessions_root

    settings = SettingsManager.create(options.cwd, str(agent_dir()))
    if session_matches(reference, sessions_folder(options, settings.get_session_dir())):
        return None
    matches = session_matches(reference, sessions_root())
    return matches[0] if len(matches) == 1 else None  # several: opening it says so


def fork_or_stop(options: RunOptions, interactive: bool) -> None:
    """Ask whether to fork another project's session (see found_elsewhere) into the start
    folder: on yes `options` forks it, otherwise the process exits with code 0."""
    path = found_elsewhere(options)
    if path is None:
        return
    from pi_core.session.missing_cwd import stored_cwd
    from pi_core.terminal_text import for_stream

    out: TextIO = sys.stdout if interactive else sys.stderr
    # the folder comes from the session file's header: untrusted text
    out.write(for_stream(f"Session found in different project: {stored_cwd(path) or ''}\n", out))
    out.write("Fork this session into current directory? [y/N] ")
    out.flush()
    answer = sys.stdin.readline()
    if not answer:  # stdin ended without an answer
        sys.exit(0)
    if answer.rstrip("\r\n").lower() not in ("y", "yes"):
        out.write("Aborted.\n")
        out.flush()
        sys.exit(0)
    options.fork = str(path)
    options.session = None
