"""At start-up: plugins recorded in settings by `pi install` that are not installed here."""

from __future__ import annotations

from pathlib import Path

from pi_core.plugins.errors import Diagnostic
from pi_core.resources.settings import SettingsManager

PLUGINS_KEY = "plugins"


def missing_plugin_diagnostics(
    settings: SettingsManager, cwd: str | Path, agent_dir: str | Path
) -> list[Diagnostic]:
    """Report each recorded plugin that is not installed, with the command that installs it."""
    if not (
        settings.get_global_settings().get(PLUGINS_KEY)
        or settings.get_project_settings().get(PLUGINS_KEY)
    ):
        return []
    from pi_core.install.environment import find_distribution
    from pi_core.install.records import SCOPES, PluginRecords
    from pi_core.install.spec import install_command

    records = PluginRecords(settings, cwd, agent_dir)
    diagnostics: list[Diagnostic] = []
    for scope in SCOPES:
        if settings.load_error(scope) is not None:
            continue  # the settings problem itself is reported already
        path = str(records.path(scope))
        problem = records.problem(scope)
        if problem is not None:
            diagnostics.append(Diagnostic(problem, path))
            continue
        for record in records.records(scope):
            if record.spec is None:
                diagnostics.append(
                    Diagnostic(
                        f"{path}: plugin {record.text!r} cannot be read: {record.error}", path
                    )
                )
            elif find_distribution(record.spec) is None:
                command = install_command(record.spec, local=scope == "project", cwd=cwd)
                diagnostics.append(
                    Diagnostic(
                        f"plugin {record.text!r} (recorded in {path}) is not installed; "
                        f"install it with: {command}",
                        path,
                    )
                )
    return diagnostics
