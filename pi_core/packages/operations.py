"""`pi install / remove / update / list` for pi packages: npm through the npm client, git by
cloning, local folders recorded in place; entries kept in `packages` as pi 0.73.1 keeps them."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pi_core.install.errors import InstallError
from pi_core.packages.configured import ConfiguredPackage, configured_packages
from pi_core.packages.layout import KINDS
from pi_core.packages.source import (
    PackageSource,
    Scope,
    global_npm_root,
    install_path,
    parse_source,
)
from pi_core.resources.settings import SettingsManager

PACKAGES_KEY = "packages"


def is_pi_package_folder(text: str, cwd: Path) -> bool:
    """Tell whether a path names a pi package folder: no Python project, and a package.json or
    one of the conventional folders (extensions, skills, prompts, themes)."""
    path = cwd / os.path.expanduser(text)
    python = (path / "pyproject.toml").is_file() or (path / "setup.py").is_file()
    markers = [path / "package.json", *(path / kind for kind in KINDS)]
    return path.is_dir() and not python and any(m.exists() for m in markers)


class PackageInstaller:
    """Installs, removes, updates and lists pi packages for one working folder."""

    def __init__(self, cwd: Path, agent_dir: Path, say: Callable[[str], None]) -> None:
        self.cwd = cwd.resolve()
        self.agent_dir = agent_dir
        self.say = say
        self.settings = SettingsManager.create(self.cwd, str(agent_dir))

    def base_dir(self, scope: Scope) -> Path:
        """Return the folder a scope's settings file (and its relative paths) live in."""
        return self.agent_dir if scope == "global" else self.cwd / ".pi"

    def install(self, text: str, scope: Scope) -> None:
        """Install a package and record it (replacing an entry for the same package)."""
        source = parse_source(text, self.cwd)
        target = install_path(source, scope, self.cwd, self.agent_dir)
        if source.kind == "npm":
            self._npm_install(source.spec, scope)
        elif source.kind == "git":
            self._git_clone(source, target)
        elif not target.exists():
            raise InstallError(f"no such file or folder: {text} ({target})")
        entry = text
        if source.kind == "local":
            entry = os.path.relpath(source.path, self.base_dir(scope)) or "."
        self._record(scope, source, entry)
        self.say(f"Installed {text} ({target})")

    def remove(self, text: str, scope: Scope) -> None:
        """Uninstall a recorded package and drop its entry."""
        wanted = parse_source(text, self.cwd).identity
        matches = [p for p in self.packages() if p.scope == scope and p.source.identity == wanted]
        if not matches:
            raise InstallError(f"{text} is not in the {scope} packages setting")
        package = matches[0]
        if package.source.kind == "npm":
            prefix = ["-g"] if scope == "global" else ["--prefix", str(self._npm_root(scope))]
            self._run(["npm", "uninstall", *prefix, package.source.name])
        elif package.source.kind == "git":
            shutil.rmtree(package.root, ignore_errors=True)
        self._write(scope, [e for e in self._entries(scope) if not self._same(e, scope, wanted)])
        self.say(f"Removed {package.source.text}")

    def update(self, text: str | None) -> None:
        """Update the unpinned npm and git packages (or the one named); paths are skipped."""
        wanted = parse_source(text, self.cwd).identity if text else None
        for package in self.packages():
            source = package.source
            if (wanted and source.identity != wanted) or source.pinned or source.kind == "local":
                continue
            if source.kind == "npm":
                self._npm_install(source.name, package.scope)
            elif package.root.is_dir():
                self._run(["git", "pull", "--ff-only"], cwd=package.root)
                self._npm_deps(package.root)
            else:
                self._git_clone(source, package.root)
            self.say(f"Updated {source.text}")

    def packages(self) -> list[ConfiguredPackage]:
        """Return the configured packages of both scopes."""
        self.settings.reload()
        return configured_packages(
            self.settings.get_global_settings(),
            self.settings.get_project_settings(),
            self.cwd,
            self.agent_dir,
        )

    def listing(self) -> list[str]:
        """Return `pi list` lines for the packages (empty when there are none)."""
        lines = []
        for package in self.packages():
            state = str(package.root) if package.installed else "not installed"
            lines.append(f"  {package.source.text}  [{package.scope}]  {state}")
        return ["pi packages:", *lines] if lines else []

    # --- internals --------------------------------------------------------------------------

    def _npm_root(self, scope: Scope) -> Path:
        return self.cwd / ".pi" / "npm" if scope == "project" else Path(global_npm_root()).parent

    def _npm_install(self, spec: str, scope: Scope) -> None:
        if scope == "global":
            self._run(["npm", "install", "-g", spec])
            return
        root = self._npm_root(scope)
        root.mkdir(parents=True, exist_ok=True)
        _ensure_gitignore(root)
        manifest = root / "package.json"
        if not manifest.exists():
            manifest.write_text(json.dumps({"name": "pi-extensions", "private": True}, indent=2))
        self._run(["npm", "install", spec, "--prefix", str(root)])

    def _git_clone(self, source: PackageSource, target: Path) -> None:
        if target.exists():
            return
        target.parent.mkdir(parents=True, exist_ok=True)
        _ensure_gitignore(target.parents[len(source.path.split("/"))])
        self._run(["git", "clone", source.repo, str(target)])
        if source.ref:
            self._run(["git", "checkout", source.ref], cwd=target)
        self._npm_deps(target)

    def _npm_deps(self, folder: Path) -> None:
        if (folder / "package.json").is_file():
            self._run(["npm", "install", "--omit=dev"], cwd=folder)

    def _run(self, argv: list[str], cwd: Path | None = None) -> None:
        try:
            done = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, check=False)
        except FileNotFoundError:
            raise InstallError(
                f"{argv[0]} is not installed; it is needed for this package"
            ) from None
        if done.returncode != 0:
            detail = (done.stderr or done.stdout).strip()
            raise InstallError(f"{' '.join(argv)} failed ({done.returncode}): {detail}")

    def _entries(self, scope: Scope) -> list[Any]:
        raw = (
            self.settings.get_global_settings()
            if scope == "global"
            else self.settings.get_project_settings()
        ).get(PACKAGES_KEY)
        return list(raw) if isinstance(raw, list) else []

    def _same(self, entry: Any, scope: Scope, identity: str) -> bool:
        text = entry.get("source") if isinstance(entry, dict) else entry
        if not isinstance(text, str):
            return False
        return parse_source(text, self.base_dir(scope)).identity == identity

    def _record(self, scope: Scope, source: PackageSource, entry: str) -> None:
        self.settings.reload()
        entries = self._entries(scope)
        kept = [e for e in entries if not self._same(e, scope, source.identity)]
        if len(kept) == len(entries):
            kept.append(entry)
        else:
            at = next(i for i, e in enumerate(entries) if self._same(e, scope, source.identity))
            kept.insert(at, entry)
        self._write(scope, kept)

    def _write(self, scope: Scope, entries: list[Any]) -> None:
        self.settings.set(PACKAGES_KEY, entries, scope)


def _ensure_gitignore(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    ignore = folder / ".gitignore"
    if not ignore.exists():
        ignore.write_text("*\n!.gitignore\n")
