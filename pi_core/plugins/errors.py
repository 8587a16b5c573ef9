"""What goes wrong with plugins, as records users can read and exceptions plugins can catch."""

from __future__ import annotations

from dataclasses import dataclass


class PluginActionError(RuntimeError):
    """A plugin called a session action before the session bound the runtime (while loading)."""


@dataclass(frozen=True)
class PluginLoadError:
    """A plugin that could not be imported or registered, with where it came from and why.

    `kind` is "file" for a plugin file or package folder (`source` is its path), "distribution"
    for an installed entry point, "recorded" for a `plugins` settings entry that cannot be
    loaded. `fix` says how to start without it.
    """

    name: str
    source: str
    error: str
    traceback: str = ""
    kind: str = "file"
    fix: str = ""

    def message(self) -> str:
        """Return the start-up error line (pi's wording for files), then the fix if any."""
        if self.kind == "file":
            text = f'Failed to load extension "{self.source}": {self.error}'
        else:
            text = f'Failed to load plugin "{self.name}" ({self.source}): {self.error}'
        return f"{text}\n  {self.fix}" if self.fix else text


class PluginLoadFailed(RuntimeError):
    """Raised instead of starting a session when a plugin failed to load (fail closed)."""

    def __init__(self, errors: list[PluginLoadError]) -> None:
        self.errors = list(errors)
        lines = [error.message() for error in self.errors]
        super().__init__("\n".join(lines))


@dataclass(frozen=True)
class Diagnostic:
    """A warning about loading that did not stop anything (ignored files, name conflicts)."""

    message: str
    source: str = ""
    level: str = "warning"


@dataclass(frozen=True)
class HookError:
    """An exception raised by a plugin's hook impl at runtime, reported to error listeners."""

    plugin: str
    source: str
    event: str
    error: str
    traceback: str = ""
