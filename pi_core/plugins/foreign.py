"""TypeScript/JavaScript extensions (pi's): found where pi would load one, they fail closed."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pi_core.plugins.errors import PluginLoadError

FOREIGN_EXTENSION_SUFFIXES = (".ts", ".js", ".mjs", ".cjs")
FOREIGN_ERROR = (
    "TypeScript/JavaScript extensions do not run here (it may be a permission gate, so pi will "
    "not start without it); port it to a Python plugin (see docs/writing-a-plugin.md)"
)


@dataclass(frozen=True)
class ForeignExtension:
    """A pi extension file or folder found where pi would load one; `name` is what blocks it."""

    path: Path
    origin: str
    package: str | None = None

    @property
    def name(self) -> str:
        """Return the name `--block-plugin` / `blockedPlugins` take: the file stem or folder."""
        return self.path.name if self.path.is_dir() else self.path.stem

    def error(self) -> PluginLoadError:
        """Describe it as a load error that stops start-up, with the ways to proceed."""
        return PluginLoadError(self.name, str(self.path), FOREIGN_ERROR, fix=self._fix())

    def _fix(self) -> str:
        block = (
            f'pi --block-plugin {self.name}, or add "{self.name}" to "blockedPlugins" in '
            "settings.json"
        )
        if self.origin == "cli":
            return f"to start without it: leave out -e {self.path}, or {block}"
        where = f" (from package {self.package})" if self.package else ""
        return f"to start without it{where}: {block}, or pi --no-extensions"


def is_foreign_extension(path: Path) -> bool:
    """Tell whether `path` is a pi (TypeScript/JavaScript) extension file or folder."""
    if path.is_file():
        return path.suffix in FOREIGN_EXTENSION_SUFFIXES
    return path.is_dir() and any(
        (path / marker).is_file() for marker in ("index.ts", "index.js", "package.json")
    )
