"""Reloading the plugins from files and folders: imported afresh beside the live ones, then
swapped in one step.

Nothing live changes until every plugin imported, passed the checks and ran its registration
hooks: a plugin that fails leaves the old plugins registered (a fail-closed gate stays shut)
and their modules back in `sys.modules`. Installed distributions (entry points) are kept as
they are: their packages are shared with other code in the process, and an upgrade goes
through `pi install` / `pi update`, which needs a restart anyway.
"""

from __future__ import annotations

import importlib
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from types import ModuleType

from pi_core.plugins.errors import PluginLoadError
from pi_core.plugins.importing import import_plugin, module_name
from pi_core.plugins.manager import LoadedPlugin, PluginManager, foreign_errors, load_error

RELOADABLE_KINDS = ("file", "package")


@dataclass
class StagedReload:
    """The plugins to take out (`old`), those ready to go in (`new`), and what failed."""

    old: list[LoadedPlugin]
    new: list[LoadedPlugin] = field(default_factory=list)
    errors: list[PluginLoadError] = field(default_factory=list)
    saved_modules: dict[str, ModuleType] = field(default_factory=dict)
    roots: set[str] = field(default_factory=set)

    def abandon(self) -> None:
        """Drop the fresh imports and put the old plugins' modules back in `sys.modules`."""
        for name in [name for name in sys.modules if _under(name, self.roots)]:
            del sys.modules[name]
        sys.modules.update(self.saved_modules)


def stage_reload(manager: PluginManager) -> StagedReload:
    """Import every plugin file and folder afresh and prepare it, leaving the live ones alone;
    on any failure the fresh imports are dropped again (see `StagedReload.errors`)."""
    old = [p for p in manager.plugins if p.source.kind in RELOADABLE_KINDS]
    found = manager.discover_files()
    roots = {module_name(p.source) for p in old}
    roots |= {module_name(s) for s in found.sources if s.kind in RELOADABLE_KINDS}
    errors = [*found.errors, *foreign_errors(found.foreign, manager.blocked, [])]
    staged = StagedReload(old, errors=errors, roots=roots)
    staged.saved_modules = {n: m for n, m in sys.modules.items() if _under(n, roots)}
    for name in staged.saved_modules:
        del sys.modules[name]  # imported again from the file, not taken from the cache
    importlib.invalidate_caches()  # files added to a plugin package since it was imported
    with _fresh_bytecode():
        for source in found.sources:
            if manager.is_blocked(source):
                continue
            try:
                staged.new.append(manager.prepare(import_plugin(source), source))
            except KeyboardInterrupt:
                raise
            except BaseException as error:  # SystemExit at import is a failure like any other
                staged.errors.append(load_error(source, error))
    if staged.errors:
        staged.abandon()
    return staged


def commit_reload(manager: PluginManager, staged: StagedReload) -> None:
    """Swap the staged plugins in; on an error the old ones stay (and the error is raised)."""
    try:
        manager.replace(staged.old, staged.new)
    except Exception:
        staged.abandon()
        raise


@contextmanager
def _fresh_bytecode() -> Iterator[None]:
    """Compile from the sources: a cached .pyc records its source's mtime in whole seconds and
    its size, so an edit in the same second that keeps the size would go unnoticed."""
    previous = sys.pycache_prefix
    with tempfile.TemporaryDirectory(prefix="pi-reload-") as folder:
        sys.pycache_prefix = folder
        try:
            yield
        finally:
            sys.pycache_prefix = previous


def _under(name: str, roots: set[str]) -> bool:
    return name in roots or name.split(".", 1)[0] in roots
