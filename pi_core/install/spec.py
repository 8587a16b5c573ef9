"""What a plugin SPEC names: a requirement (`pi-plugin-foo`, `pi-plugin-foo==1.2`,
`name @ URL`), a `git+URL`, or a local path (a project folder, a wheel or an sdist).

Requirements, names and archive file names are read by `packaging` (what pip itself uses); this
module decides which of the three forms a SPEC is and refuses the forms pip would misread.
`packaging` is imported on first use (~15 ms): start-up parses specs only when plugins are
recorded in settings.
"""

from __future__ import annotations

import configparser
import os
import re
import shlex
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Literal
from urllib.parse import parse_qs, unquote, urlsplit

if TYPE_CHECKING:
    from packaging.requirements import Requirement

SpecKind = Literal["requirement", "git", "path"]

# `NAME [extras] @ …`: a direct reference, told apart from a path before `packaging` reads it.
URL_REQUIREMENT = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*\s*(\[[^\]]*\])?\s*@")
ARCHIVE_SUFFIXES = (".whl", ".tar.gz", ".tgz", ".tar.bz2", ".tar.xz", ".zip")
GIT_SCHEMES = ("https", "http", "ssh", "git", "file")
EDITABLE_PREFIXES = ("-e ", "--editable ", "--editable=")


class SpecError(ValueError):
    """A SPEC that names nothing pi can install."""


def normalize_name(name: str) -> str:
    """Return a distribution name in its canonical form (PEP 503: lower case, runs of -_. to -)."""
    from packaging.utils import canonicalize_name

    return canonicalize_name(name)


def is_valid_name(name: str) -> bool:
    """Tell whether `name` is a valid distribution name."""
    from packaging.utils import InvalidName, canonicalize_name

    try:
        canonicalize_name(name, validate=True)
    except InvalidName:
        return False
    return True


@dataclass(frozen=True)
class PluginSpec:
    """One parsed SPEC: its kind, the distribution name when the spec tells it, where it points."""

    text: str
    kind: SpecKind
    name: str | None = None
    path: Path | None = None
    url: str | None = None
    editable: bool = False
    pinned: bool = False

    @property
    def key(self) -> str | None:
        """Return the canonical distribution name, or None when the spec does not tell it."""
        return normalize_name(self.name) if self.name else None

    @property
    def location(self) -> str | None:
        """Return where a path or git spec points (the resolved path, the repository)."""
        if self.kind == "path" and self.path is not None:
            return str(self.path)
        if self.kind == "git" and self.url is not None:
            return git_location(self.url)
        return None

    def same_plugin(self, other: PluginSpec) -> bool:
        """Tell whether two specs name the same distribution (by name, else by location)."""
        if self.key and other.key:
            return self.key == other.key
        return self.location is not None and self.location == other.location

    def installer_args(self) -> list[str]:
        """Return the arguments that name this spec on a pip / uv install command line."""
        if self.kind == "path" and self.path is not None:
            return ["-e", str(self.path)] if self.editable else [str(self.path)]
        return [self.text]

    def with_name(self, name: str) -> PluginSpec:
        """Return a bare `git+URL` spec as `NAME @ git+URL`, so the record names it."""
        if self.kind != "git" or self.name or self.url is None:
            return self
        return replace(self, text=f"{name} @ {self.url}", name=name)

    def describe(self) -> str:
        """Return the spec as a user typed it (with `-e` when editable)."""
        return f"-e {self.text}" if self.editable else self.text


def parse_spec(text: str, base: str | os.PathLike[str], *, editable: bool = False) -> PluginSpec:
    """Parse a SPEC; relative paths resolve against `base`; raise SpecError for unknown forms."""
    raw = text.strip()
    for prefix in EDITABLE_PREFIXES:
        if raw.startswith(prefix):
            raw, editable = raw[len(prefix) :].strip(), True
            break
    if not raw:
        raise SpecError("empty plugin spec")
    lowered = raw.lower()
    if lowered.startswith("git+"):
        return _git(raw, raw, None, editable)
    if lowered.startswith("file:"):
        return _path(_file_url_path(raw), Path(base), editable)
    if raw.startswith((".", "/", "~")):
        return _path(raw, Path(base), editable)
    _reject_foreign(raw)
    if URL_REQUIREMENT.match(raw):
        return _url_requirement(raw, editable)
    if "/" in raw or "\\" in raw or lowered.endswith(ARCHIVE_SUFFIXES):
        return _path(raw, Path(base), editable)
    return _requirement(raw, editable)


def _parse_requirement(raw: str) -> Requirement:
    from packaging.requirements import InvalidRequirement, Requirement

    try:
        return Requirement(raw)
    except InvalidRequirement as error:
        starts_with_name = re.match(r"[A-Za-z0-9]", raw) is not None
        what = (
            "not a valid requirement" if starts_with_name else "not a package name or requirement"
        )
        reason = str(error).splitlines()[0]  # the rest is a caret drawing under the text
        raise SpecError(f"{what}: {raw!r} ({reason})") from None


def _requirement(raw: str, editable: bool) -> PluginSpec:
    requirement = _parse_requirement(raw)
    if editable:
        raise SpecError(f"-e/--editable takes a local project folder, not {raw!r}")
    pinned = any(
        clause.operator in ("==", "===") and not clause.version.endswith(".*")
        for clause in requirement.specifier
    )
    return PluginSpec(raw, "requirement", name=requirement.name, pinned=pinned)


def _url_requirement(raw: str, editable: bool) -> PluginSpec:
    requirement = _parse_requirement(raw)
    url = requirement.url or ""
    if url.lower().startswith("git+"):
        return _git(raw, url, requirement.name, editable)
    if "://" not in url and not url.lower().startswith("file:"):
        raise SpecError(f"not a valid URL requirement: {raw!r} (expected NAME @ URL)")
    if editable:
        raise SpecError(f"-e/--editable takes a local project folder, not {raw!r}")
    return PluginSpec(raw, "requirement", name=requirement.name, url=url, pinned=True)


def _git(raw: str, url: str, name: str | None, editable: bool) -> PluginSpec:
    parts = urlsplit(url[4:])
    if parts.scheme not in GIT_SCHEMES or not parts.path.strip("/"):
        raise SpecError(
            f"not a git URL pip understands: {url!r} "
            "(expected git+https://host/owner/repo, git+ssh://git@host/owner/repo or git+file:///path)"
        )
    if parts.scheme != "file" and not parts.netloc:
        raise SpecError(f"git URL without a host: {url!r}")
    if editable:
        raise SpecError(f"-e/--editable takes a local project folder; install {url!r} without it")
    egg = parse_qs(parts.fragment).get("egg", [""])[0]
    if name is None and egg and is_valid_name(egg):
        name = egg
    pinned = "@" in parts.path
    return PluginSpec(raw, "git", name=name or None, url=url, pinned=pinned)


def _path(raw: str, base: Path, editable: bool) -> PluginSpec:
    given = Path(os.path.expanduser(raw))
    resolved = (given if given.is_absolute() else base / given).resolve()
    if editable and resolved.is_file():
        raise SpecError(f"-e/--editable takes a project folder, not the file {raw!r}")
    return PluginSpec(raw, "path", name=name_from_path(resolved), path=resolved, editable=editable)


def _file_url_path(url: str) -> str:
    parts = urlsplit(url)
    if parts.netloc not in ("", "localhost"):
        raise SpecError(f"a file: URL must name a local path: {url!r}")
    return unquote(parts.path)


def _reject_foreign(raw: str) -> None:
    lowered = raw.lower()
    if lowered.startswith("npm:"):
        raise SpecError(
            f"{raw!r} is an npm package: pi's TypeScript packages live in the `packages` setting, "
            "which this pi leaves alone; give a Python plugin (a PyPI name, git+URL or path)"
        )
    if lowered.startswith(("git:", "github:")):
        where = raw.split(":", 1)[1].lstrip("/")
        raise SpecError(f"unknown spec form {raw!r}; for a git repository use git+https://{where}")
    if re.match(r"^(hg|svn|bzr)\+", lowered):
        raise SpecError(f"only git+ URLs are supported, not {raw!r}")
    if re.match(r"^[a-z][a-z0-9+.-]*://", lowered):
        raise SpecError(
            f"unknown spec form {raw!r}; use git+{raw} for a git repository, "
            "or NAME @ URL for an archive"
        )
    if re.match(r"^[\w.-]+@[\w.-]+:", raw):
        raise SpecError(f"unknown spec form {raw!r}; for a git repository over ssh use git+ssh://…")


def name_from_path(path: Path) -> str | None:
    """Return the distribution name a project folder, wheel or sdist declares, if it says."""
    from packaging.utils import (
        InvalidSdistFilename,
        InvalidWheelFilename,
        parse_sdist_filename,
        parse_wheel_filename,
    )

    filename = path.name
    try:
        if filename.endswith(".whl"):
            return parse_wheel_filename(filename)[0]
        for suffix in ARCHIVE_SUFFIXES:
            if filename.endswith(suffix):  # older sdist suffixes are read as `.tar.gz`
                return parse_sdist_filename(filename[: -len(suffix)] + ".tar.gz")[0]
    except (InvalidWheelFilename, InvalidSdistFilename):
        return None
    if not path.is_dir():
        return None
    return _pyproject_name(path / "pyproject.toml") or _setup_cfg_name(path / "setup.cfg")


def _pyproject_name(file: Path) -> str | None:
    import tomllib

    try:
        with open(file, "rb") as handle:
            data = tomllib.load(handle)
    except (OSError, tomllib.TOMLDecodeError):
        return None
    project = data.get("project")
    name = project.get("name") if isinstance(project, dict) else None
    return name if isinstance(name, str) and is_valid_name(name) else None


def _setup_cfg_name(file: Path) -> str | None:
    parser = configparser.ConfigParser()
    try:
        parser.read(file, encoding="utf-8")
    except (configparser.Error, UnicodeDecodeError):
        return None
    name = parser.get("metadata", "name", fallback=None)
    return name if name and is_valid_name(name) else None


def git_location(url: str) -> str:
    """Return a repository's identity: host and path (no scheme, user, ref or `.git`) + subdir."""
    rest = url[4:] if url.lower().startswith("git+") else url
    parts = urlsplit(rest)
    path = parts.path.rsplit("@", 1)[0] if "@" in parts.path else parts.path
    path = path.rstrip("/")
    path = path.removesuffix(".git")
    subdirectory = parse_qs(parts.fragment).get("subdirectory", [""])[0].strip("/")
    location = f"{(parts.hostname or '').lower()}{path}"
    return f"{location}#{subdirectory}" if subdirectory else location


def check_installable(spec: PluginSpec) -> None:
    """Raise SpecError when a path spec points at nothing pip can install."""
    if spec.kind != "path" or spec.path is None:
        return
    path, shown = spec.path, spec.text
    if not path.exists():
        raise SpecError(f"no such file or folder: {shown} ({path})")
    if path.is_dir():
        if not ((path / "pyproject.toml").is_file() or (path / "setup.py").is_file()):
            raise SpecError(
                f"{shown} is not a Python project (no pyproject.toml or setup.py); a folder of "
                "plugin files goes in .pi/extensions/ or the `extensions` setting instead"
            )
        return
    if path.suffix == ".py":
        raise SpecError(
            f"{shown} is a single plugin file, which pip cannot install; copy it into "
            "~/.pi/agent/extensions/ (or .pi/extensions/), or add its path to `extensions` in "
            "settings.json"
        )
    if not path.name.lower().endswith(ARCHIVE_SUFFIXES):
        raise SpecError(f"{shown} is not a wheel or source archive, nor a project folder")


def settings_text(spec: PluginSpec, base_dir: str | os.PathLike[str]) -> str:
    """Return the string to record: paths relative to the settings file's folder, as pi does."""
    if spec.kind != "path" or spec.path is None:
        return spec.describe()
    relative = Path(os.path.relpath(spec.path, base_dir)).as_posix()
    if not relative.startswith(("./", "../", "/")) and relative not in (".", ".."):
        relative = f"./{relative}"
    return f"-e {relative}" if spec.editable else relative


def install_command(spec: PluginSpec, *, local: bool, cwd: str | os.PathLike[str]) -> str:
    """Return the `pi install …` command line that installs and records `spec` from `cwd`."""
    words = ["pi", "install"]
    if local:
        words.append("-l")
    if spec.kind == "path" and spec.path is not None:
        if spec.editable:
            words.append("-e")
        relative = os.path.relpath(spec.path, cwd)
        plain = relative == "." or relative.startswith(("..", "/"))
        words.append(relative if plain else f"./{relative}")
    else:
        words.append(spec.text)
    return shlex.join(words)
