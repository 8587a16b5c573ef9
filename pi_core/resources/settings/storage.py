"""Reading and writing `settings.json` safely: parse errors name the file and line, writes happen
under a lock and replace the file atomically, and a broken file is never written over."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from pi_core.fileio import LockTimeout, atomic_write, pi_lock

SettingsScope = Literal["global", "project"]
Updater = Callable[[dict[str, Any]], dict[str, Any]]


class SettingsFileError(ValueError):
    """A settings file that cannot be used: not JSON, not an object, or unreadable."""

    def __init__(self, path: str, message: str, line: int | None = None, column: int | None = None):
        where = f"{path}:{line}:{column}" if line is not None else path
        super().__init__(f"{where}: {message}")
        self.path = path
        self.line = line
        self.column = column
        self.reason = message


def parse_settings_text(text: str | None, path: str) -> dict[str, Any]:
    """Parse a settings file's text ({} when absent or blank); raise SettingsFileError."""
    if text is None or not text.strip():
        return {}
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise SettingsFileError(
            path, f"invalid JSON in settings: {error.msg}", error.lineno, error.colno
        ) from None
    if not isinstance(data, dict):
        raise SettingsFileError(path, "settings must be a JSON object", 1, 1)
    return data


def dump_settings(data: dict[str, Any]) -> str:
    """Serialize settings the way pi writes them (two-space indent, no trailing newline)."""
    return json.dumps(data, indent=2, ensure_ascii=False)


class SettingsStorage(Protocol):
    """Where the two settings scopes live."""

    def path(self, scope: SettingsScope) -> str:
        """Return a scope's location, for messages."""
        ...

    def read(self, scope: SettingsScope) -> str | None:
        """Return a scope's text, or None when there is none."""
        ...

    def update(self, scope: SettingsScope, updater: Updater) -> dict[str, Any]:
        """Read, parse, apply `updater` and write back, all under the scope's lock."""
        ...


@dataclass
class FileSettingsStorage:
    """`<agent dir>/settings.json` and `<cwd>/.pi/settings.json`."""

    global_path: str
    project_path: str

    @classmethod
    def for_dirs(cls, cwd: str, agent_dir: str) -> FileSettingsStorage:
        """Return the storage for a project folder and an agent dir."""
        return cls(
            os.path.join(agent_dir, "settings.json"),
            os.path.join(cwd, ".pi", "settings.json"),
        )

    def path(self, scope: SettingsScope) -> str:
        """Return a scope's file."""
        return self.global_path if scope == "global" else self.project_path

    def read(self, scope: SettingsScope) -> str | None:
        """Return a scope's file text (None when missing); raise SettingsFileError if unreadable."""
        path = self.path(scope)
        try:
            with open(path, encoding="utf-8") as handle:
                return handle.read()
        except FileNotFoundError:
            return None
        except (OSError, UnicodeDecodeError) as error:
            raise SettingsFileError(path, f"cannot read settings: {error}") from None

    def update(self, scope: SettingsScope, updater: Updater) -> dict[str, Any]:
        """Apply `updater` to the file's current object under lock; write atomically."""
        path = self.path(scope)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        try:
            with pi_lock(path):
                current = parse_settings_text(self.read(scope), path)
                updated = updater(current)
                atomic_write(path, dump_settings(updated))
                return updated
        except LockTimeout:
            raise SettingsFileError(path, f"settings are locked ({path}.lock exists)") from None


@dataclass
class InMemorySettingsStorage:
    """Settings held in memory (tests and the SDK); same semantics, no files."""

    texts: dict[str, str | None] = field(default_factory=lambda: {"global": None, "project": None})

    def path(self, scope: SettingsScope) -> str:
        """Return a label for messages."""
        return f"<in-memory {scope} settings>"

    def read(self, scope: SettingsScope) -> str | None:
        """Return the scope's text."""
        return self.texts.get(scope)

    def update(self, scope: SettingsScope, updater: Updater) -> dict[str, Any]:
        """Apply `updater` to the scope's object."""
        updated = updater(parse_settings_text(self.read(scope), self.path(scope)))
        self.texts[scope] = dump_settings(updated)
        return updated
