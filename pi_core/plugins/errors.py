"""What goes wrong with plugins, as records users can read and exceptions plugins can catch."""

from __future__ import annotations

from dataclasses import dataclass


class PluginActionError(RuntimeError):
    """A plugin called a session action before the session bound the runtime (while loading)."""


@dataclass(frozen=True)
class PluginLoadError:
    """A plugin that could not be imported or registered, with where it came from and why."""

    name: str
    source: str
    error: str
    traceback: str = ""


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
