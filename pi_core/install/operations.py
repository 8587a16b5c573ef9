"""The installer's four operations: install, remove, list and update plugin distributions.

Each runs the installer through an injected `Runner` and reports through callbacks: `say` for
results, `warn` for what the user should look at, `relay` for the installer's own stderr.
Settings change only after the installer succeeded, and never when a settings file is unusable.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pi_core.install import environment
from pi_core.install.environment import Installed
from pi_core.install.errors import InstallerFailed, InstallError
from pi_core.install.records import SCOPE_LABELS, SCOPES, PluginRecords, Record
from pi_core.install.runner import InstallTool, Runner, choose_tool, run_subprocess
from pi_core.install.spec import (
    PluginSpec,
    SpecError,
    check_installable,
    install_command,
    parse_spec,
)
from pi_core.resources.settings import SettingsFileError, SettingsScope

CORE_DISTRIBUTION = "pi-harness"
Report = Callable[[str], None]


@dataclass(frozen=True)
class ListedPlugin:
    """A recorded plugin in `pi list`: its record and what is installed for it."""

    scope: SettingsScope
    text: str
    installed: Installed | None
    install_command: str | None = None
    error: str | None = None

    def as_dict(self) -> dict[str, Any]:
        """Return the entry as JSON-ready data."""
        item = self.installed
        return {
            "scope": self.scope,
            "spec": self.text,
            "status": "invalid" if self.error else ("installed" if item else "missing"),
            "name": item.name if item else None,
            "version": item.version if item else None,
            "editable": item.editable if item else False,
            "entry_points": list(item.entry_points) if item else [],
            "install": self.install_command,
            "error": self.error,
        }


@dataclass
class Listing:
    """What `pi list` shows: recorded plugins per scope, unusable files, unrecorded plugins."""

    recorded: list[ListedPlugin] = field(default_factory=list)
    unrecorded: list[Installed] = field(default_factory=list)
    problems: dict[SettingsScope, str] = field(default_factory=dict)
    paths: dict[SettingsScope, str] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        """Return the listing as JSON-ready data."""
        return {
            "recorded": [item.as_dict() for item in self.recorded],
            "unrecorded": [
                {"name": i.name, "version": i.version, "entry_points": list(i.entry_points)}
                for i in self.unrecorded
            ],
            "settings": {
                scope: {"path": self.paths[scope], "error": self.problems.get(scope)}
                for scope in SCOPES
            },
        }


def _ignore(message: str) -> None:
    pass


class PluginInstaller:
    """Installs, removes, lists and updates plugins, recording them in settings."""

    def __init__(
        self,
        records: PluginRecords,
        *,
        runner: Runner = run_subprocess,
        tool: InstallTool | None = None,
        say: Report = _ignore,
        warn: Report = _ignore,
        relay: Report = _ignore,
    ) -> None:
        self.records = records
        self.runner = runner
        self._tool = tool
        self.say = say
        self.warn = warn
        self.relay = relay

    @property
    def cwd(self) -> Path:
        """Return the folder relative specs are resolved against."""
        return self.records.cwd

    def tool(self) -> InstallTool:
        """Return the installer to use (chosen on first use)."""
        if self._tool is None:
            self._tool = choose_tool()
        return self._tool

    # --- install --------------------------------------------------------------------------

    def install(
        self,
        text: str,
        *,
        scope: SettingsScope = "global",
        editable: bool = False,
        extra: Sequence[str] = (),
    ) -> str:
        """Install a SPEC into this environment and record it; return the recorded text."""
        spec = self._parse(text, editable=editable)
        try:
            check_installable(spec)
        except SpecError as error:
            raise InstallError(str(error)) from None
        self.records.entries(scope)  # refuse before installing if the file is unusable
        if (
            spec.kind == "requirement"
            and spec.text == spec.name
            and (self.cwd / spec.text).is_dir()
        ):
            self.warn(f"installing the package {spec.text!r}; for the folder, use ./{spec.text}")
        tool = self.tool()
        self.say(f"Installing {spec.describe()} with {tool.label}…")
        self._run(tool.install(spec.installer_args(), extra=extra), f"{tool.label} install")
        environment.refresh()
        dist = environment.find_distribution(spec)
        installed = environment.describe(dist) if dist is not None else None
        if installed is None:
            self.warn(
                f"{tool.label} succeeded, but no installed distribution matches {spec.text}; "
                "`pi list` will show it as missing"
            )
        else:
            spec = spec.with_name(installed.name)
            if not installed.entry_points:
                self.warn(
                    f"{installed.name} {installed.version} is installed, but it declares no `pi` "
                    "entry point, so pi will load nothing from it (a plugin declares one under "
                    "[project.entry-points.pi] in its pyproject.toml)"
                )
        recorded = self._record(spec, scope)
        what = f"{installed.name} {installed.version}" if installed else spec.text
        self.say(f"Installed {what}; recorded {recorded!r} in {self.records.path(scope)}")
        return recorded

    # --- remove ---------------------------------------------------------------------------

    def remove(self, text: str, *, scope: SettingsScope = "global") -> None:
        """Uninstall the distribution a SPEC names and drop its record from a scope."""
        spec = self._parse(text)
        matches = self.records.matches(spec, scope)
        dist = None
        for candidate in [*(m.spec for m in matches if m.spec is not None), spec]:
            dist = environment.find_distribution(candidate)
            if dist is not None:
                break
        installed = environment.describe(dist) if dist is not None else None
        if not matches and (installed is None or not installed.entry_points):
            raise InstallError(self._not_recorded(spec, text, scope))
        if installed is not None:
            if installed.key == CORE_DISTRIBUTION:
                raise InstallError(f"refusing to uninstall {installed.name}: that is pi itself")
            tool = self.tool()
            self._run(tool.uninstall([installed.name]), f"{tool.label} uninstall")
            self.say(f"Uninstalled {installed.name} {installed.version}")
        else:
            self.warn(f"{text} is not installed; removing its record only")
        path = self.records.path(scope)
        if matches:
            try:
                self.records.remove([m.text for m in matches], scope)
            except SettingsFileError as error:
                raise InstallError(f"uninstalled, but could not update settings: {error}") from None
            shown = ", ".join(repr(m.text) for m in matches)
            self.say(f"Removed {shown} from {path}")
        else:
            self.say(f"({text} was not recorded in {path})")
        if installed is not None:
            self._warn_still_recorded(spec, installed, scope)

    def _not_recorded(self, spec: PluginSpec, text: str, scope: SettingsScope) -> str:
        message = f"{text} is not recorded in {self.records.path(scope)}"
        other: SettingsScope = "project" if scope == "global" else "global"
        if self.records.problem(other) is None and self.records.matches(spec, other):
            flag = "with -l" if other == "project" else "without -l"
            return f"{message}; it is recorded in {SCOPE_LABELS[other]} settings: run it {flag}"
        return f"{message}, nor installed as a pi plugin; see `pi list`"

    def _warn_still_recorded(
        self, spec: PluginSpec, installed: Installed, scope: SettingsScope
    ) -> None:
        other: SettingsScope = "project" if scope == "global" else "global"
        if self.records.problem(other) is not None:
            return
        named = spec.with_name(installed.name)
        for record in self.records.records(other):
            if record.spec is not None and (
                record.spec.same_plugin(named) or record.spec.key == installed.key
            ):
                flag = " -l" if other == "project" else ""
                self.warn(
                    f"{record.text!r} is still recorded in {self.records.path(other)}; pi will "
                    f"report it missing until you run `pi remove{flag} {record.text}`"
                )

    # --- list -----------------------------------------------------------------------------

    def listing(self) -> Listing:
        """Return the recorded plugins of both scopes and the unrecorded installed plugins."""
        listing = Listing()
        seen: set[str] = set()
        for scope in SCOPES:
            listing.paths[scope] = str(self.records.path(scope))
            problem = self.records.problem(scope)
            if problem is not None:
                listing.problems[scope] = problem
                continue
            for record in self.records.records(scope):
                item = self._listed(record)
                if item.installed is not None:
                    seen.add(item.installed.key)
                listing.recorded.append(item)
        listing.unrecorded = [
            item for item in environment.plugin_distributions() if item.key not in seen
        ]
        return listing

    def _listed(self, record: Record) -> ListedPlugin:
        if record.spec is None:
            return ListedPlugin(record.scope, record.text, None, error=record.error)
        dist = environment.find_distribution(record.spec)
        if dist is not None:
            return ListedPlugin(record.scope, record.text, environment.describe(dist))
        command = install_command(record.spec, local=record.scope == "project", cwd=self.cwd)
        return ListedPlugin(record.scope, record.text, None, install_command=command)

    # --- update ---------------------------------------------------------------------------

    def update(self, text: str | None = None, *, extra: Sequence[str] = ()) -> bool:
        """Upgrade the recorded plugins (or the one `text` names); return False if any failed."""
        records: list[Record] = []
        for scope in SCOPES:
            problem = self.records.problem(scope)
            if problem is not None:
                self.warn(f"skipping {SCOPE_LABELS[scope]} plugins: {problem}")
                continue
            records += self.records.records(scope)
        if text is not None:
            wanted = self._parse(text)
            records = [r for r in records if r.spec is not None and r.spec.same_plugin(wanted)]
            if not records:
                raise InstallError(f"{text} is not recorded in settings; see `pi list`")
        chosen: list[Record] = []
        for record in records:
            if record.spec is None or not any(
                c.spec is not None and c.spec.same_plugin(record.spec) for c in chosen
            ):
                chosen.append(record)
        if not chosen:
            self.say("No plugins are recorded in settings; nothing to update")
            return True
        ok = True
        for record in chosen:
            ok = self._update_one(record, extra) and ok
        return ok

    def _update_one(self, record: Record, extra: Sequence[str]) -> bool:
        spec = record.spec
        if spec is None:
            self.warn(f"skipping {record.text!r}: {record.error}")
            return True
        if spec.kind == "path":
            command = install_command(spec, local=record.scope == "project", cwd=self.cwd)
            self.say(f"Skipping {record.text}: a local path; reinstall it with `{command}`")
            return True
        if spec.pinned:
            self.say(f"Skipping {record.text}: pinned")
            return True
        before = environment.find_distribution(spec)
        old = before.version if before is not None else None
        tool = self.tool()
        self.say(f"Updating {record.text} with {tool.label}…")
        argv = tool.install(spec.installer_args(), upgrade=True, name=spec.name, extra=extra)
        try:
            self._run(argv, f"{tool.label} install --upgrade")
        except InstallerFailed as error:
            self.warn(f"updating {record.text}: {error}")
            return False
        environment.refresh()
        after = environment.find_distribution(spec)
        name = after.name if after is not None else spec.name or record.text
        new = after.version if after is not None else "?"
        if old == new:
            self.say(f"{name} {new} is up to date")
        else:
            self.say(f"Updated {name} {old or '(not installed)'} → {new}")
        return True

    # --- shared ---------------------------------------------------------------------------

    def _parse(self, text: str, *, editable: bool = False) -> PluginSpec:
        try:
            return parse_spec(text, self.cwd, editable=editable)
        except SpecError as error:
            raise InstallError(str(error)) from None

    def _run(self, argv: list[str], action: str) -> None:
        result = self.runner(argv)
        if result.returncode != 0:
            raise InstallerFailed(action, result.returncode, result.stderr)
        for line in result.stderr.splitlines():
            if line.strip():
                self.relay(line)

    def _record(self, spec: PluginSpec, scope: SettingsScope) -> str:
        try:
            return self.records.add(spec, scope)
        except (SettingsFileError, InstallError) as error:
            raise InstallError(f"installed, but could not record it in settings: {error}") from None


def default_installer(
    say: Report, warn: Report, relay: Report, cwd: str | None = None
) -> PluginInstaller:
    """Return an installer for the current folder and agent dir, running real commands."""
    from pi_core.config.paths import agent_dir

    records = PluginRecords.create(cwd or os.getcwd(), agent_dir())
    return PluginInstaller(records, say=say, warn=warn, relay=relay)
