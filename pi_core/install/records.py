"""The `plugins` list in `settings.json`: the specs `pi install` recorded, per scope.

The value is a list of strings, each a SPEC as `pi install` takes it:

    "plugins": [
      "pi-plugin-foo",                          a requirement (name, maybe a version)
      "pi-plugin-bar==1.2",                     pinned: `pi update` leaves it
      "pi-plugin-baz @ git+https://host/o/r",   a git URL, recorded with its distribution's name
      "../src/pi-plugin-qux",                   a path, relative to the settings file's folder
      "-e ../src/pi-plugin-dev"                 an editable install of a project folder
    ]

Global records live in `~/.pi/agent/settings.json`, project records in `.pi/settings.json`. pi's
own `packages` key (npm packages) is never read or written here.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pi_core.config.paths import project_dir
from pi_core.install.errors import InstallError
from pi_core.install.spec import PluginSpec, SpecError, parse_spec, settings_text
from pi_core.resources.settings import SettingsManager, SettingsScope

PLUGINS_KEY = "plugins"
SCOPES: tuple[SettingsScope, ...] = ("global", "project")
SCOPE_LABELS: dict[SettingsScope, str] = {"global": "user", "project": "project"}


@dataclass(frozen=True)
class Record:
    """One recorded spec: its scope, the text as stored, and the parsed spec (or why not)."""

    scope: SettingsScope
    text: str
    spec: PluginSpec | None
    error: str | None = None


class PluginRecords:
    """Read and change the `plugins` list of the global and project settings files."""

    def __init__(self, settings: SettingsManager, cwd: str | Path, agent_dir: str | Path) -> None:
        self.settings = settings
        self.cwd = Path(cwd)
        self.agent_dir = Path(agent_dir)

    @classmethod
    def create(cls, cwd: str | Path, agent_dir: str | Path) -> PluginRecords:
        """Return the records of `<agent dir>/settings.json` and `<cwd>/.pi/settings.json`."""
        return cls(SettingsManager.create(cwd, str(agent_dir)), cwd, agent_dir)

    def base_dir(self, scope: SettingsScope) -> Path:
        """Return the folder relative paths in a scope's records resolve against."""
        return self.agent_dir if scope == "global" else project_dir(self.cwd)

    def path(self, scope: SettingsScope) -> Path:
        """Return a scope's settings file."""
        return self.base_dir(scope) / "settings.json"

    def problem(self, scope: SettingsScope) -> str | None:
        """Return why a scope's records cannot be read or changed, or None."""
        error = self.settings.load_error(scope)
        if error is not None:
            return str(error)
        raw = self._raw(scope).get(PLUGINS_KEY)
        if raw is None or (isinstance(raw, list) and all(isinstance(e, str) for e in raw)):
            return None
        return f"{self.path(scope)}: `{PLUGINS_KEY}` must be a list of spec strings"

    def entries(self, scope: SettingsScope) -> list[str]:
        """Return a scope's recorded spec strings; raise InstallError if the file is unusable."""
        problem = self.problem(scope)
        if problem is not None:
            raise InstallError(f"{problem}; fix it first (the file was left as it is)")
        raw = self._raw(scope).get(PLUGINS_KEY)
        return list(raw) if isinstance(raw, list) else []

    def records(self, scope: SettingsScope) -> list[Record]:
        """Return a scope's records, each parsed; raise InstallError if the file is unusable."""
        return [self._parse(scope, text) for text in self.entries(scope)]

    def matches(self, spec: PluginSpec, scope: SettingsScope) -> list[Record]:
        """Return the records of a scope that name the same plugin as `spec`."""
        return [r for r in self.records(scope) if r.spec is not None and r.spec.same_plugin(spec)]

    def add(self, spec: PluginSpec, scope: SettingsScope) -> str:
        """Record `spec` (replacing a record of the same plugin in place); return the text."""
        self.settings.reload()
        current = self.entries(scope)
        text = settings_text(spec, self.base_dir(scope))
        updated: list[str] = []
        for entry in current:
            parsed = self._parse(scope, entry).spec
            if parsed is not None and parsed.same_plugin(spec):
                if text not in updated:
                    updated.append(text)
            else:
                updated.append(entry)
        if text not in updated:
            updated.append(text)
        if updated != current:
            self.settings.set(PLUGINS_KEY, updated, scope)
        return text

    def remove(self, texts: list[str], scope: SettingsScope) -> None:
        """Drop the recorded entries `texts` from a scope."""
        self.settings.reload()
        current = self.entries(scope)
        updated = [entry for entry in current if entry not in texts]
        if updated != current:
            self.settings.set(PLUGINS_KEY, updated, scope)

    def _raw(self, scope: SettingsScope) -> dict[str, object]:
        if scope == "global":
            return self.settings.get_global_settings()
        return self.settings.get_project_settings()

    def _parse(self, scope: SettingsScope, text: str) -> Record:
        try:
            return Record(scope, text, parse_spec(text, self.base_dir(scope)))
        except SpecError as error:
            return Record(scope, text, None, str(error))
