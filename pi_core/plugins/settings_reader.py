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
