"""Finding resource files: auto-discovered folders, settings paths, and their precedence.

The order is pi's: project settings paths, project folders, global settings paths, global
folders, then installed packages; the first of two paths to the same real file wins.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from pi_core.resources.diagnostics import Origin, Scope, SourceInfo
from pi_core.resources.ignore import IgnoreMatcher, add_ignore_rules
from pi_core.resources.patterns import apply_patterns, enabled_by_overrides, split_patterns

ResourceKind = Literal["skills", "prompts", "themes"]
RESOURCE_KINDS: tuple[ResourceKind, ...] = ("skills", "prompts", "themes")
SkillMode = Literal["pi", "agents"]
_SUFFIX: dict[ResourceKind, str] = {"skills": ".md", "prompts": ".md", "themes": ".json"}


@dataclass(frozen=True)
class ResolvedResource:
    """A resource file (or folder) to load, whether it is enabled, and where it came from."""

    path: str
    enabled: bool
    info: SourceInfo


def home_dir() -> str:
    """Return `$HOME` (what pi uses for `~` and `~/.agents`)."""
    return os.environ.get("HOME") or os.path.expanduser("~")


def expand_tilde(path: str) -> str:
    """Expand `~`, `~/x` (and pi's `~x`) against the home folder; strips surrounding spaces."""
    trimmed = path.strip()
    if trimmed == "~":
        return home_dir()
    if trimmed.startswith("~/"):
        return os.path.join(home_dir(), trimmed[2:])
    if trimmed.startswith("~"):
        return os.path.join(home_dir(), trimmed[1:])
    return trimmed


def resolve_from(base: str, path: str) -> str:
    """Resolve a settings or CLI path (with `~`) against `base`, normalized but not realpath'd."""
    return os.path.normpath(os.path.join(base, expand_tilde(path)))


def canonical(path: str) -> str:
    """Return the real path (symlinks followed), or the path itself when that fails."""
    try:
        return os.path.realpath(path, strict=True)
    except OSError:
        return path


def list_entries(folder: str) -> list[tuple[str, str, bool, bool]]:
    """Return (name, path, is_dir, is_file) for a folder's entries, sorted, symlinks followed."""
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return []
    entries = []
    for name in names:
        full = os.path.join(folder, name)
        if os.path.exists(full):  # skips broken symlinks
            entries.append((name, full, os.path.isdir(full), os.path.isfile(full)))
    return entries


def _rel(path: str, root: str) -> str:
    return os.path.relpath(path, root).replace(os.sep, "/")


def collect_skill_entries(
    folder: str,
    mode: SkillMode = "pi",
    matcher: IgnoreMatcher | None = None,
    root: str | None = None,
) -> list[str]:
    """Find skill files: a folder's SKILL.md (then stop), else recurse; `pi` mode also takes the
    root folder's own `.md` files."""
    if not os.path.exists(folder):
        return []
    root = root or folder
    matcher = matcher or IgnoreMatcher()
    add_ignore_rules(matcher, folder, root)
    entries = list_entries(folder)
    for name, full, _is_dir, is_file in entries:
        if name == "SKILL.md" and is_file and not matcher.ignores(_rel(full, root)):
            return [full]
    found: list[str] = []
    for name, full, is_dir, is_file in entries:
        if name.startswith(".") or name == "node_modules":
            continue
        rel = _rel(full, root)
        if mode == "pi" and folder == root and is_file and name.endswith(".md"):
            if not matcher.ignores(rel):
                found.append(full)
            continue
        if is_dir and not matcher.ignores(rel + "/"):
            found += collect_skill_entries(full, mode, matcher, root)
    return found


def collect_files(
    folder: str, suffix: str, matcher: IgnoreMatcher | None = None, root: str | None = None
) -> list[str]:
    """Find files ending in `suffix` under a folder, recursively, honouring ignore files."""
    if not os.path.exists(folder):
        return []
    root = root or folder
    matcher = matcher or IgnoreMatcher()
    add_ignore_rules(matcher, folder, root)
    found: list[str] = []
    for name, full, is_dir, is_file in list_entries(folder):
        if name.startswith(".") or name == "node_modules":
            continue
        rel = _rel(full, root)
        if matcher.ignores(rel + "/" if is_dir else rel):
            continue
        if is_dir:
            found += collect_files(full, suffix, matcher, root)
        elif is_file and name.endswith(suffix):
            found.append(full)
    return found


def collect_top_level(folder: str, suffix: str) -> list[str]:
    """Find files ending in `suffix` directly in a folder (how prompts/ and themes/ are read)."""
    if not os.path.exists(folder):
        return []
    matcher = IgnoreMatcher()
    add_ignore_rules(matcher, folder, folder)
    return [
        full
        for name, full, _is_dir, is_file in list_entries(folder)
        if not name.startswith(".")
        and name != "node_modules"
        and is_file
        and name.endswith(suffix)
        and not matcher.ignores(_rel(full, folder))
    ]


def collect_resource_files(folder: str, kind: ResourceKind) -> list[str]:
    """Find the resource files of one kind inside a folder named in settings or by a package."""
    if kind == "skills":
        return collect_skill_entries(folder, "pi")
    return collect_files(folder, _SUFFIX[kind])


def collect_from_paths(paths: Iterable[str], kind: ResourceKind) -> list[str]:
    """Expand files and folders into resource files (missing paths are skipped)."""
    files: list[str] = []
    for path in paths:
        if os.path.isfile(path):
            files.append(path)
        elif os.path.isdir(path):
            files += collect_resource_files(path, kind)
    return files


def find_git_root(start: str) -> str | None:
    """Return the nearest folder at or above `start` holding `.git`, or None."""
    folder = os.path.abspath(start)
    while True:
        if os.path.exists(os.path.join(folder, ".git")):
            return folder
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent


def ancestor_agents_skill_dirs(cwd: str) -> list[str]:
    """Return `.agents/skills` in the cwd and each parent up to the git root (or `/`)."""
    start = os.path.abspath(cwd)
    git_root = find_git_root(start)
    folders = []
    folder = start
    while True:
        folders.append(os.path.join(folder, ".agents", "skills"))
        if git_root is not None and folder == git_root:
            break
        parent = os.path.dirname(folder)
        if parent == folder:
            break
        folder = parent
    return folders


def _rank(info: SourceInfo) -> int:
    if info.origin == "package":
        return 4
    return (0 if info.scope == "project" else 2) + (0 if info.source == "local" else 1)


@dataclass
class ResourceAccumulator:
    """Collects resource paths per kind; the first add of a path wins."""

    entries: dict[ResourceKind, dict[str, tuple[SourceInfo, bool]]] = field(
        default_factory=lambda: {kind: {} for kind in RESOURCE_KINDS}
    )

    def add(self, kind: ResourceKind, path: str, info: SourceInfo, enabled: bool) -> None:
        """Record a path unless it is already there."""
        if path and path not in self.entries[kind]:
            self.entries[kind][path] = (info.model_copy(update={"path": path}), enabled)

    def resolved(self, kind: ResourceKind) -> list[ResolvedResource]:
        """Return the paths by precedence, each real file once."""
        items = sorted(self.entries[kind].items(), key=lambda item: _rank(item[1][0]))
        seen: set[str] = set()
        result = []
        for path, (info, enabled) in items:
            real = canonical(path)
            if real in seen:
                continue
            seen.add(real)
            result.append(ResolvedResource(path, enabled, info))
        return result


def _info(source: str, scope: Scope, base_dir: str, origin: Origin = "top-level") -> SourceInfo:
    return SourceInfo(path="", source=source, scope=scope, origin=origin, base_dir=base_dir)


def add_settings_entries(
    acc: ResourceAccumulator,
    kind: ResourceKind,
    entries: Sequence[str],
    scope: Scope,
    base_dir: str,
) -> None:
    """Add a scope's settings paths of one kind; globs and overrides decide what is enabled."""
    if not entries:
        return
    plain, patterns = split_patterns(entries)
    files = collect_from_paths([resolve_from(base_dir, p) for p in plain], kind)
    enabled = apply_patterns(files, patterns, base_dir)
    info = _info("local", scope, base_dir)
    for path in files:
        acc.add(kind, path, info, path in enabled)


def add_package_folder(
    acc: ResourceAccumulator, kind: ResourceKind, folder: str, source: str
) -> None:
    """Add every resource of one kind in an installed package's folder."""
    info = _info(source, "user", folder, origin="package")
    for path in collect_from_paths([folder], kind):
        acc.add(kind, path, info, True)


def add_auto_discovered(
    acc: ResourceAccumulator,
    cwd: str,
    agent_dir: str,
    global_settings: dict[str, Any],
    project_settings: dict[str, Any],
) -> None:
    """Add the conventional folders: `.pi/*` and `.agents/skills` (project), then the agent
    dir's folders and `~/.agents/skills` (user); settings overrides may disable files."""
    project_base = os.path.join(cwd, ".pi")
    user_agents = os.path.abspath(os.path.join(home_dir(), ".agents", "skills"))
    project_agents = [
        d for d in ancestor_agents_skill_dirs(cwd) if os.path.abspath(d) != user_agents
    ]
    scopes: list[tuple[Scope, str, dict[str, Any], list[str]]] = [
        ("project", project_base, project_settings, project_agents),
        ("user", agent_dir, global_settings, [user_agents]),
    ]
    for scope, base, settings, agents_dirs in scopes:
        info = _info("auto", scope, base)
        found: dict[ResourceKind, list[str]] = {
            "skills": collect_skill_entries(os.path.join(base, "skills"), "pi")
            + [p for d in agents_dirs for p in collect_skill_entries(d, "agents")],
            "prompts": collect_top_level(os.path.join(base, "prompts"), ".md"),
            "themes": collect_top_level(os.path.join(base, "themes"), ".json"),
        }
        for kind, paths in found.items():
            overrides = _string_list(settings.get(kind))
            for path in paths:
                acc.add(kind, path, info, enabled_by_overrides(path, overrides, base))


def _string_list(value: Any) -> list[str]:
    if isinstance(value, list):
        return [item for item in value if isinstance(item, str)]
    return []


def resolve_resources(
    cwd: str,
    agent_dir: str,
    global_settings: dict[str, Any],
    project_settings: dict[str, Any],
    package_folders: Sequence[tuple[ResourceKind, str, str]] = (),
) -> dict[ResourceKind, list[ResolvedResource]]:
    """Resolve every skill, prompt and theme path from settings, folders and packages."""
    acc = ResourceAccumulator()
    for kind, folder, source in package_folders:
        add_package_folder(acc, kind, folder, source)
    project_base = os.path.join(cwd, ".pi")
    for kind in RESOURCE_KINDS:
        project_entries = _string_list(project_settings.get(kind))
        global_entries = _string_list(global_settings.get(kind))
        add_settings_entries(acc, kind, project_entries, "project", project_base)
        add_settings_entries(acc, kind, global_entries, "user", agent_dir)
    add_auto_discovered(acc, cwd, agent_dir, global_settings, project_settings)
    return {kind: acc.resolved(kind) for kind in RESOURCE_KINDS}
