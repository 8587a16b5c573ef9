"""Render the template files (`files/*.tmpl`, `string.Template` syntax) into a new folder."""

from __future__ import annotations

import datetime
import json
import shutil
import subprocess
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from pi_core._version import __version__
from pi_core.plugin_template.names import PluginNames

# Template file -> path in the new distribution; `{package}` and `{entry}` are filled in.
LAYOUT: dict[str, str] = {
    "pyproject.toml.tmpl": "pyproject.toml",
    "README.md.tmpl": "README.md",
    "LICENSE.tmpl": "LICENSE",
    "gitignore.tmpl": ".gitignore",
    "src/__init__.py.tmpl": "src/{package}/__init__.py",
    "src/py.typed.tmpl": "src/{package}/py.typed",
    "tests/test_plugin.py.tmpl": "tests/test_{entry}.py",
}
DEFAULT_AUTHOR = "Your Name"


class TargetExistsError(FileExistsError):
    """The folder to create the plugin in exists and is not empty."""


@dataclass(frozen=True)
class PluginSpec:
    """What the author chose: the names, a one-line description and the licence holder."""

    names: PluginNames
    description: str
    author: str


def core_range(version: str = __version__) -> str:
    """Return the pi-harness range for the minor series of `version`: `>=0.1,<0.2` for 0.1.x."""
    major, minor = version.split(".")[:2]
    return f">={major}.{minor},<{major}.{int(minor) + 1}"


def default_description(names: PluginNames) -> str:
    """Return the description used when the author gives none."""
    return f"The {names.tool} tool, the /{names.short} command and a greeting option for pi"


def git_author() -> str:
    """Return `git config user.name`, or a placeholder when git or the setting is missing."""
    git = shutil.which("git")
    if git is None:
        return DEFAULT_AUTHOR
    done = subprocess.run([git, "config", "user.name"], capture_output=True, text=True, check=False)
    return done.stdout.strip() or DEFAULT_AUTHOR


def substitutions(spec: PluginSpec) -> dict[str, str]:
    """Return the values of the templates' `$name` placeholders."""
    names = spec.names
    return {
        "dist": names.dist,
        "package": names.package,
        "entry": names.entry,
        "tool": names.tool,
        "title": names.title,
        "command": names.short,
        "flag": f"{names.short}-greeting",
        "description": spec.description,
        "description_toml": json.dumps(spec.description, ensure_ascii=False),
        "author": spec.author,
        "author_toml": json.dumps(spec.author, ensure_ascii=False),
        "year": str(datetime.date.today().year),
        "core_range": core_range(),
    }


def render_plugin(spec: PluginSpec, target: Path) -> list[Path]:
    """Write the new distribution into `target` (created; it must not hold anything yet) and
    return the files written."""
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise TargetExistsError(f"{target} already exists and is not an empty folder")
    from string import Template

    values = substitutions(spec)
    source = resources.files("pi_core.plugin_template").joinpath("files")
    written: list[Path] = []
    for template, relative in LAYOUT.items():
        text = source.joinpath(template).read_text(encoding="utf-8")
        path = target / relative.format(package=spec.names.package, entry=spec.names.entry)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(Template(text).substitute(values), encoding="utf-8")
        written.append(path)
    return written
