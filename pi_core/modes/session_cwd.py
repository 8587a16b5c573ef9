"""`--session FILE|ID` works in the session's own folder, as in pi 0.73.1.

pi decides the folder before it loads anything bound to one: the opened session's stored `cwd`
when that folder exists (one that is gone is missing_cwd.py's case), so project settings,
plugins, context files and the tools all belong to that folder. Paths typed on the command line
(`@file`, `-e`, `--skill`, ...) still mean what they meant in the folder pi was started in.
"""

from __future__ import annotations

from pathlib import Path

from pi_core.modes.run_options import RunOptions


def opened_session_folder(options: RunOptions) -> tuple[Path, Path] | None:
    """The file `--session` names and its stored folder, when that folder exists and is not the
    start folder; None otherwise (no `--session`, not found: opening it says why)."""
    if not options.session or options.no_session or options.fork:
        return None
    from pi_core.modes.session_elsewhere import found_elsewhere

    if found_elsewhere(options) is not None:  # forked into the start folder, or not opened
        return None
    from pi_core.agent_session.relocate import session_folder
    from pi_core.config.paths import agent_dir
    from pi_core.modes.startup import StartupError, find_session, sessions_folder
    from pi_core.resources.settings import SettingsManager
    from pi_core.session.missing_cwd import stored_cwd

    settings = SettingsManager.create(options.cwd, str(agent_dir()))
    try:
        path = find_session(options.session, sessions_folder(options, settings.get_session_dir()))
    except StartupError:
        return None
    start = str(options.cwd.resolve())
    folder = session_folder(stored_cwd(path), start)
    return None if folder == start else (path, Path(folder))


def start_in_session_folder(options: RunOptions, files: list[str]) -> list[str]:
    """Move `options` to the `--session`'s own folder (see opened_session_folder); return the
    `@file` arguments made absolute against the start folder."""
    opened = opened_session_folder(options)
    if opened is None:
        return files
    start = options.cwd
    options.session = str(opened[0])  # an id is looked up once, among the start folder's
    options.extensions = [_absolute(start, p) for p in options.extensions]
    options.skills = [_absolute(start, p) for p in options.skills]
    options.prompt_templates = [_absolute(start, p) for p in options.prompt_templates]
    options.themes = [_absolute(start, p) for p in options.themes]
    options.cwd = opened[1]
    return [_absolute(start, p) for p in files]


def _absolute(start: Path, path: str) -> str:
    """`path` resolved against `start` (with `~`), the way the folder-bound loaders would."""
    from pi_core.config.paths import resolve_path

    return str(resolve_path(path, start))
