"""At start-up: plugins recorded in settings by `pi install` that cannot load (not installed, or an
entry that cannot be read). Each is a load error: a recorded plugin may be a gate, so pi does not
run without it (fail closed); `pi plugins` lists them and goes on."""

from __future__ import annotations

import shlex
from pathlib import Path

from pi_core.plugins.errors import PluginLoadError
from pi_core.resources.settings import SettingsManager

PLUGINS_KEY = "plugins"


def recorded_plugin_errors(
    settings: SettingsManager, cwd: str | Path, agent_dir: str | Path
) -> list[PluginLoadError]:
    """Return one error per recorded plugin that is missing or unreadable, with the fix."""
    if not (
        settings.get_global_settings().get(PLUGINS_KEY)
        or settings.get_project_settings().get(PLUGINS_KEY)
    ):
        return []
    from pi_core.install.environment import find_distribution
    from pi_core.install.records import SCOPES, PluginRecords
    from pi_core.install.spec import install_command

    records = PluginRecords(settings, cwd, agent_dir)
    errors: list[PluginLoadError] = []
    for scope in SCOPES:
        if settings.load_error(scope) is not None:
            continue  # the settings problem itself is reported already
        path = str(records.path(scope))
        local = ["-l"] if scope == "project" else []
        problem = records.problem(scope)
        if problem is not None:
            errors.append(
                PluginLoadError(
                    PLUGINS_KEY, path, problem, kind="recorded", fix="fix the list in that file"
                )
            )
            continue
        for record in records.records(scope):
            remove = shlex.join(["pi", "remove", *local, record.text])
            where = f"recorded in {path}"
            if record.spec is None:
                errors.append(
                    PluginLoadError(
                        record.text,
                        where,
                        f"cannot be read: {record.error}",
                        kind="recorded",
                        fix=f"fix or remove the entry in that file ({remove})",
                    )
                )
            elif find_distribution(record.spec) is None:
                command = install_command(record.spec, local=scope == "project", cwd=cwd)
                errors.append(
                    PluginLoadError(
                        record.text,
                        where,
                        "not installed",
                        kind="recorded",
                        fix=f"drop the record with {remove}, or install it with: {command}",
                    )
                )
    return errors
