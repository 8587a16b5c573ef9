"""The settings manager: global and project `settings.json` merged, typed, and written back one
key at a time."""

from __future__ import annotations

import copy
import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from pi_core.config.paths import agent_dir as default_agent_dir
from pi_core.resources.settings.accessors import SettingsAccessors
from pi_core.resources.settings.models import Settings, deep_merge, migrate_settings
from pi_core.resources.settings.storage import (
    FileSettingsStorage,
    InMemorySettingsStorage,
    SettingsFileError,
    SettingsScope,
    SettingsStorage,
    dump_settings,
    parse_settings_text,
)

SCOPES: tuple[SettingsScope, ...] = ("global", "project")
KeyPath = str | Sequence[str]


@dataclass(frozen=True)
class SettingsProblem:
    """Something wrong in a settings file: unusable (`error`) or a value ignored (`warning`)."""

    scope: SettingsScope
    path: str
    message: str
    level: str = "error"
    line: int | None = None
    column: int | None = None

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}:{self.column}" if self.line is not None else self.path
        return f"{where}: {self.message}"


def key_path(key: KeyPath) -> tuple[str, ...]:
    """Split `"compaction.reserveTokens"` (or accept a sequence) into JSON key segments."""
    parts = tuple(key.split(".")) if isinstance(key, str) else tuple(key)
    if not parts or any(not part for part in parts):
        raise ValueError(f"invalid settings key {key!r}")
    return parts


def _nest(path: tuple[str, ...], value: Any) -> dict[str, Any]:
    result: dict[str, Any] = {path[-1]: value}
    for part in reversed(path[:-1]):
        result = {part: result}
    return result


def _assign(data: dict[str, Any], path: tuple[str, ...], value: Any, remove: bool) -> None:
    target = data
    for part in path[:-1]:
        child = target.get(part)
        if not isinstance(child, dict):
            child = {}
            target[part] = child
        target = child
    if remove:
        target.pop(path[-1], None)
    else:
        target[path[-1]] = copy.deepcopy(value)


def _drop(data: dict[str, Any], loc: Sequence[int | str]) -> bool:
    """Remove the innermost object key named by a validation error's location."""
    keys: list[str] = []
    for part in loc:
        if not isinstance(part, str):
            break
        keys.append(part)
    target: Any = data
    for key in keys[:-1]:
        child = target.get(key) if isinstance(target, dict) else None
        if not isinstance(child, dict):
            break
        target = child
    else:
        if keys and isinstance(target, dict) and keys[-1] in target:
            del target[keys[-1]]
            return True
    if keys and keys[0] in data:
        del data[keys[0]]
        return True
    return False


class SettingsManager(SettingsAccessors):
    """Global settings merged with project settings (project wins, objects merge one level)."""

    def __init__(self, storage: SettingsStorage) -> None:
        self._storage = storage
        self._raw: dict[SettingsScope, dict[str, Any]] = {"global": {}, "project": {}}
        self._usable: dict[SettingsScope, dict[str, Any]] = {"global": {}, "project": {}}
        self._load_errors: dict[SettingsScope, SettingsFileError | None] = {
            "global": None,
            "project": None,
        }
        self._overrides: dict[str, Any] = {}
        self.errors: list[SettingsProblem] = []
        self._settings = Settings()
        self.reload()

    # --- construction ---------------------------------------------------------------------

    @classmethod
    def create(cls, cwd: str | os.PathLike[str], agent_dir: str | None = None) -> SettingsManager:
        """Load `<agent dir>/settings.json` and `<cwd>/.pi/settings.json`."""
        agent = os.fspath(agent_dir) if agent_dir is not None else str(default_agent_dir())
        return cls(FileSettingsStorage.for_dirs(os.fspath(cwd), agent))

    @classmethod
    def in_memory(
        cls, global_settings: dict[str, Any] | None = None, project: dict[str, Any] | None = None
    ) -> SettingsManager:
        """Return a manager over in-memory settings (no files)."""
        storage = InMemorySettingsStorage()
        if global_settings is not None:
            storage.texts["global"] = dump_settings(global_settings)
        if project is not None:
            storage.texts["project"] = dump_settings(project)
        return cls(storage)

    # --- loading --------------------------------------------------------------------------

    def move_project(self, cwd: str | os.PathLike[str]) -> None:
        """Read project settings from `<cwd>/.pi/settings.json` from now on (a session of
        another folder was opened); settings that are not file-backed stay as they are."""
        if not isinstance(self._storage, FileSettingsStorage):
            return
        self._storage = FileSettingsStorage(
            self._storage.global_path, os.path.join(os.fspath(cwd), ".pi", "settings.json")
        )
        self._raw["project"], self._usable["project"] = {}, {}
        self.reload()

    def reload(self) -> None:
        """Re-read both files; a file that became unreadable keeps its last good values."""
        for scope in SCOPES:
            path = self._storage.path(scope)
            try:
                raw = migrate_settings(parse_settings_text(self._storage.read(scope), path))
            except SettingsFileError as error:
                self._load_errors[scope] = error
                self._record(scope, error)
                continue
            self._load_errors[scope] = None
            self._raw[scope] = raw
            self._usable[scope] = self._validated(scope, raw)
        self._rebuild()

    def _record(self, scope: SettingsScope, error: SettingsFileError) -> None:
        self.errors.append(
            SettingsProblem(scope, error.path, error.reason, "error", error.line, error.column)
        )

    def _validated(self, scope: SettingsScope, raw: dict[str, Any]) -> dict[str, Any]:
        """Return `raw` without the keys whose values do not fit (each one reported)."""
        usable = copy.deepcopy(raw)
        while True:
            try:
                Settings.model_validate(usable)
                return usable
            except ValidationError as error:
                removed = False
                for item in error.errors():
                    location = ".".join(str(part) for part in item["loc"])
                    self.errors.append(
                        SettingsProblem(
                            scope,
                            self._storage.path(scope),
                            f"ignoring {location}: {item['msg']}",
                            "warning",
                        )
                    )
                    removed = _drop(usable, item["loc"]) or removed
                if not removed:
                    return {}

    def _rebuild(self) -> None:
        merged = deep_merge(self._usable["global"], self._usable["project"])
        self._settings = Settings.model_validate(deep_merge(merged, self._overrides))

    # --- reading --------------------------------------------------------------------------

    @property
    def settings(self) -> Settings:
        """Return the effective, typed settings (defaults filled in)."""
        return self._settings

    def get_global_settings(self) -> dict[str, Any]:
        """Return a copy of the global file's object (after migration)."""
        return copy.deepcopy(self._raw["global"])

    def get_project_settings(self) -> dict[str, Any]:
        """Return a copy of the project file's object (after migration)."""
        return copy.deepcopy(self._raw["project"])

    def get_raw(self, key: KeyPath, default: Any = None) -> Any:
        """Return a merged value by JSON key path (unknown keys included), or `default`."""
        node: Any = deep_merge(
            deep_merge(self._usable["global"], self._usable["project"]), self._overrides
        )
        for part in key_path(key):
            if not isinstance(node, dict) or part not in node:
                return default
            node = node[part]
        return copy.deepcopy(node)

    def load_error(self, scope: SettingsScope) -> SettingsFileError | None:
        """Return why a scope's file is unusable, or None."""
        return self._load_errors[scope]

    def drain_errors(self) -> list[SettingsProblem]:
        """Return and forget the problems recorded so far."""
        drained, self.errors = self.errors, []
        return drained

    def apply_overrides(self, overrides: dict[str, Any]) -> None:
        """Layer runtime overrides (e.g. CLI flags) over the files; never written."""
        candidate = deep_merge(self._overrides, overrides)
        merged = deep_merge(deep_merge(self._usable["global"], self._usable["project"]), candidate)
        self._settings = Settings.model_validate(merged)
        self._overrides = candidate

    # --- writing --------------------------------------------------------------------------

    def set(self, key: KeyPath, value: Any, scope: SettingsScope = "global") -> None:
        """Write one key (a JSON path like `compaction.enabled`) to a scope's file."""
        self._write(key_path(key), value, scope, remove=False)

    def remember(self, key: KeyPath, value: Any) -> None:
        """Save a preference the session changed to the global file; when that file cannot be
        used (not valid settings, locked), keep the value for this run only, file untouched."""
        try:
            self.set(key, value)
        except SettingsFileError:
            self.apply_overrides(_nest(key_path(key), value))

    def unset(self, key: KeyPath, scope: SettingsScope = "global") -> None:
        """Remove one key from a scope's file."""
        self._write(key_path(key), None, scope, remove=True)

    def _write(self, path: tuple[str, ...], value: Any, scope: SettingsScope, remove: bool) -> None:
        if not remove:
            try:
                Settings.model_validate(_nest(path, value))
            except ValidationError as error:
                detail = "; ".join(item["msg"] for item in error.errors())
                raise ValueError(f"invalid value for {'.'.join(path)}: {detail}") from None
        load_error = self._load_errors[scope]
        if load_error is not None:
            raise SettingsFileError(
                load_error.path,
                f"refusing to change {'.'.join(path)}: the file is not valid settings "
                f"({load_error.reason}); fix or remove it first",
                load_error.line,
                load_error.column,
            )

        def apply(current: dict[str, Any]) -> dict[str, Any]:
            migrated = migrate_settings(current)
            _assign(migrated, path, value, remove)
            return migrated

        try:
            written = self._storage.update(scope, apply)
        except SettingsFileError as error:
            self._load_errors[scope] = error
            self._record(scope, error)
            raise
        self._raw[scope] = migrate_settings(copy.deepcopy(written))
        self._usable[scope] = self._validated(scope, self._raw[scope])
        self._rebuild()
