"""A `--session` whose stored folder is gone is refused before anything else is checked.

pi 0.73.1 opens the session right after parsing the options and, in the modes that cannot ask
(print, json), stops there when its folder is gone: that error comes before one about a missing
prompt, so `pi --session FILE -p` with no message names the missing folder.
"""

from __future__ import annotations

from pi_core.modes.run_options import RunOptions


def refuse_missing_folder(options: RunOptions) -> None:
    """Raise MissingSessionCwdError when `--session` names a file whose stored folder is gone
    (and the session is not being continued in the current folder); otherwise do nothing (a
    session that cannot be found is reported when it is opened)."""
    if not options.session or options.no_session or options.fork or options.session_in_cwd:
        return
    from pi_core.config.paths import agent_dir
    from pi_core.modes.startup import StartupError, find_session, sessions_folder
    from pi_core.resources.settings import SettingsManager
    from pi_core.session.missing_cwd import MissingSessionCwdError, missing_cwd_of_file

    settings = SettingsManager.create(options.cwd, str(agent_dir()))
    try:
        path = find_session(options.session, sessions_folder(options, settings.get_session_dir()))
    except StartupError:
        return
    issue = missing_cwd_of_file(path, str(options.cwd))
    if issue is not None:
        raise MissingSessionCwdError(issue)
