"""`ctx.settings`: the merged settings, read-only, for plugins."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pi_core.resources.settings.manager import SettingsManager


class SettingsReader:
    """Reads settings by their JSON key path, as written in settings.json (`"warnings.x"`):
    project over global, `--settings`-style overrides on top; never writes."""

    def __init__(self, source: SettingsManager | None) -> None:
        self._source = source

    def get(self, key: str, default: Any = None) -> Any:
        """Return a copy of the value at `key`, or `default` when no file sets it."""
        if self._source is None:
            return default
        return self._source.get_raw(key, default)

    def unusable_files(self) -> list[tuple[str, str]]:
        """Return `(path, why)` for each settings file that exists but could not be used (not
        readable, not JSON, not an object), project first: its values are unknown."""
        if self._source is None:
            return []
        errors = (self._source.load_error(scope) for scope in ("project", "global"))
        return [(error.path, str(error)) for error in errors if error is not None]
