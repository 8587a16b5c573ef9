"""The resource loader: settings, skills, prompt templates, themes, context files and the system
prompt sources, rebuilt together by `reload()`."""

from __future__ import annotations

import os
from collections.abc import Callable, Collection, Sequence
from datetime import date
from typing import TYPE_CHECKING, Any, Protocol

from pi_core.config.paths import agent_dir as default_agent_dir
from pi_core.resources.context_files import (
    ContextFile,
    discover_append_system_prompt_file,
    discover_system_prompt_file,
    load_context_files,
    resolve_prompt_input,
)
from pi_core.resources.diagnostics import ResourceDiagnostic, SourceInfo
from pi_core.resources.discovery import ResourceKind, canonical, resolve_from, resolve_resources
from pi_core.resources.entry_points import package_folders
from pi_core.resources.prompt_templates import (
    PromptTemplate,
    expand_prompt_template,
    load_prompt_templates,
)
from pi_core.resources.settings import SettingsManager
from pi_core.resources.skills import Skill, expand_skill_command, load_skills
from pi_core.resources.system_prompt import (
    DocPaths,
    SystemPromptOptions,
    build_system_prompt,
    tool_options,
)
from pi_core.resources.themes import ThemeFile, load_themes

if TYPE_CHECKING:
    from pi_core.plugins.dispatch import HookDispatcher


class _Tagged(Protocol):
    @property
    def path(self) -> str: ...

    @property
    def plugin(self) -> str: ...


class PluginResources(Protocol):
    """What `HookDispatcher.resources_discover` returns (paths tagged with their plugin)."""

    @property
    def skill_paths(self) -> Sequence[_Tagged]:
        """Skill files or folders."""
        ...

    @property
    def prompt_paths(self) -> Sequence[_Tagged]:
        """Prompt template files or folders."""
        ...

    @property
    def theme_paths(self) -> Sequence[_Tagged]:
        """Theme files or folders."""
        ...


_KINDS: tuple[ResourceKind, ...] = ("skills", "prompts", "themes")


class ResourceLoader:
    """Loads every resource for a working directory; `reload()` rebuilds it all from disk."""

    def __init__(
        self,
        cwd: str | os.PathLike[str],
        agent_dir: str | os.PathLike[str] | None = None,
        settings: SettingsManager | None = None,
        *,
        skill_paths: Sequence[str] = (),
        prompt_template_paths: Sequence[str] = (),
        theme_paths: Sequence[str] = (),
        no_skills: bool = False,
        no_prompt_templates: bool = False,
        no_themes: bool = False,
        no_context_files: bool = False,
        system_prompt: str | None = None,
        append_system_prompt: Sequence[str] | None = None,
        installed_packages: bool = True,
        blocked_plugins: Collection[str] = (),
    ) -> None:
        self.cwd = os.path.abspath(os.fspath(cwd))
        agent = default_agent_dir() if agent_dir is None else agent_dir
        self.agent_dir = os.path.abspath(os.fspath(agent))
        self.settings = settings or SettingsManager.create(self.cwd, self.agent_dir)
        # resolved here: they keep meaning what they meant where pi started if `cwd` moves
        self._cli: dict[ResourceKind, list[str]] = {
            "skills": [resolve_from(self.cwd, p) for p in skill_paths],
            "prompts": [resolve_from(self.cwd, p) for p in prompt_template_paths],
            "themes": [resolve_from(self.cwd, p) for p in theme_paths],
        }
        self._disabled = {"skills": no_skills, "prompts": no_prompt_templates, "themes": no_themes}
        self.no_context_files = no_context_files
        self._system_prompt_source = system_prompt
        self._append_sources = None if append_system_prompt is None else list(append_system_prompt)
        self._installed_packages = installed_packages
        self._blocked = list(blocked_plugins)
        self._infos: list[tuple[str, SourceInfo]] = []
        self._paths: dict[ResourceKind, list[str]] = {kind: [] for kind in _KINDS}
        self.skills: list[Skill] = []
        self.prompts: list[PromptTemplate] = []
        self.themes: list[ThemeFile] = []
        self.context_files: list[ContextFile] = []
        self.system_prompt: str | None = None
        self.append_system_prompt: list[str] = []
        self.diagnostics_by_kind: dict[str, list[ResourceDiagnostic]] = {}

    # --- results ----------------------------------------------------------------------------

    @property
    def diagnostics(self) -> list[ResourceDiagnostic]:
        """Return every diagnostic from the last reload (packages, skills, prompts, themes,
        context files, system prompt files)."""
        return [d for group in self.diagnostics_by_kind.values() for d in group]

    @property
    def skill_diagnostics(self) -> list[ResourceDiagnostic]:
        """Return the skills' warnings and collisions."""
        return self.diagnostics_by_kind.get("skills", [])

    @property
    def prompt_diagnostics(self) -> list[ResourceDiagnostic]:
        """Return the prompt templates' warnings and collisions."""
        return self.diagnostics_by_kind.get("prompts", [])

    # --- loading ----------------------------------------------------------------------------

    def reload(self, plugin_resources: PluginResources | None = None) -> None:
        """Re-read settings and rebuild every resource (plugin paths, if given, come last)."""
        self.settings.reload()
        settings = self.settings.settings
        global_raw = self.settings.get_global_settings()
        project_raw = self.settings.get_project_settings()
        self.diagnostics_by_kind = {"packages": self._package_notes()}
        folders = []
        if self._installed_packages:
            found = package_folders([*settings.blocked_plugins, *self._blocked])
            folders = [(f.kind, f.folder, f.source) for f in found.folders]
            self.diagnostics_by_kind["packages"] += found.diagnostics
        from pi_core.packages.loading import package_resource_paths  # imports resources

        folders += package_resource_paths(self.settings, self.cwd, self.agent_dir)
        resolved = resolve_resources(self.cwd, self.agent_dir, global_raw, project_raw, folders)
        self._infos = []
        for kind in _KINDS:
            enabled = []
            for item in resolved[kind]:
                self._infos.append((item.path, item.info))
                if item.enabled:
                    enabled.append(item.path)
            cli = [resolve_from(self.cwd, p) for p in self._cli[kind]]
            for path in cli:
                info = SourceInfo(path=path, source="cli", scope="temporary", base_dir=path)
                self._infos.append((path, info))
            primary = [] if self._disabled[kind] else enabled
            self._paths[kind] = _merge_paths(primary, cli)
        if plugin_resources is not None:
            self._add_plugin_paths(plugin_resources)
        for kind in _KINDS:
            self._load(kind)
        self._load_context()

    def extend(self, plugin_resources: PluginResources) -> None:
        """Add paths from plugins (resources_discover) after everything else, and reload them."""
        self._add_plugin_paths(plugin_resources)
        for kind in _KINDS:
            self._load(kind)

    async def discover_from_plugins(self, dispatcher: HookDispatcher, reason: str) -> None:
        """Ask plugins for resource paths (resources_discover) and add them."""
        if dispatcher.has_impls("resources_discover"):
            self.extend(await dispatcher.resources_discover(self.cwd, reason))

    def _add_plugin_paths(self, found: PluginResources) -> None:
        groups: dict[ResourceKind, Sequence[_Tagged]] = {
            "skills": found.skill_paths,
            "prompts": found.prompt_paths,
            "themes": found.theme_paths,
        }
        for kind, tagged in groups.items():
            paths = []
            for entry in tagged:
                path = resolve_from(self.cwd, entry.path)
                info = SourceInfo(path=path, source=f"plugin:{entry.plugin}", scope="temporary")
                self._infos.insert(0, (path, info))
                paths.append(path)
            self._paths[kind] = _merge_paths(self._paths[kind], paths)

    def _info_for(self, path: str) -> SourceInfo | None:
        for root, info in self._infos:
            if path == root:
                return info.model_copy(update={"path": path})
        for root, info in self._infos:
            if path.startswith(root.rstrip(os.sep) + os.sep):
                return info.model_copy(update={"path": path})
        return None

    def _load(self, kind: ResourceKind) -> None:
        paths = self._paths[kind]
        missing = [
            ResourceDiagnostic(type="error", message=f"{_LABEL[kind]} path does not exist", path=p)
            for p in (resolve_from(self.cwd, c) for c in self._cli[kind])
            if not os.path.exists(p)
        ]
        if kind == "skills":
            skills = load_skills(paths, self.cwd, self._info_for)
            self.skills = skills.skills
            diagnostics = skills.diagnostics
        elif kind == "prompts":
            prompts = load_prompt_templates(paths, self.cwd, self._info_for)
            self.prompts = prompts.prompts
            diagnostics = prompts.diagnostics
        else:
            themes = load_themes(paths, self.cwd, self._info_for)
            self.themes = themes.themes
            diagnostics = themes.diagnostics
        seen = {d.path for d in diagnostics}
        self.diagnostics_by_kind[kind] = diagnostics + [d for d in missing if d.path not in seen]

    def _load_context(self) -> None:
        notes: list[ResourceDiagnostic] = []
        if self.no_context_files:
            self.context_files = []
        else:
            found = load_context_files(self.cwd, self.agent_dir)
            self.context_files = found.files
            notes += found.diagnostics
        source = self._system_prompt_source or discover_system_prompt_file(self.cwd, self.agent_dir)
        self.system_prompt = resolve_prompt_input(source, self.cwd, notes)
        appends = self._append_sources
        if appends is None:
            discovered = discover_append_system_prompt_file(self.cwd, self.agent_dir)
            appends = [discovered] if discovered else []
        texts = (resolve_prompt_input(item, self.cwd, notes) for item in appends)
        self.append_system_prompt = [text for text in texts if text is not None]
        self.diagnostics_by_kind["context"] = notes

    def _package_notes(self) -> list[ResourceDiagnostic]:
        from pi_core.packages.loading import missing_package_notes

        return [
            ResourceDiagnostic(type="warning", message=message)
            for message in missing_package_notes(self.settings, self.cwd, self.agent_dir)
        ]

    # --- using resources --------------------------------------------------------------------

    def expand_input(self, text: str, on_error: Callable[[Skill, str], None] | None = None) -> str:
        """Expand `/skill:name args`, then `/template args`; other text comes back unchanged."""
        return expand_prompt_template(
            expand_skill_command(text, self.skills, on_error), self.prompts
        )

    def system_prompt_options(
        self,
        tools: Sequence[Any] | None = None,
        *,
        today: date | None = None,
        doc_paths: DocPaths | None = None,
    ) -> SystemPromptOptions:
        """Return the options pi builds its system prompt from, for these active tools."""
        extra: dict[str, Any] = tool_options(tools) if tools is not None else {}
        return SystemPromptOptions(
            cwd=self.cwd,
            custom_prompt=self.system_prompt,
            append_system_prompt="\n\n".join(self.append_system_prompt) or None,
            context_files=self.context_files,
            skills=self.skills,
            today=today,
            doc_paths=doc_paths,
            **extra,
        )

    def build_system_prompt(
        self,
        tools: Sequence[Any] | None = None,
        *,
        today: date | None = None,
        doc_paths: DocPaths | None = None,
    ) -> str:
        """Return the system prompt for these active tools (name, prompt_snippet, guidelines)."""
        return build_system_prompt(
            self.system_prompt_options(tools, today=today, doc_paths=doc_paths)
        )


_LABEL: dict[ResourceKind, str] = {
    "skills": "Skill",
    "prompts": "Prompt template",
    "themes": "Theme",
}


def _merge_paths(primary: Sequence[str], additional: Sequence[str]) -> list[str]:
    merged: list[str] = []
    seen: set[str] = set()
    for path in [*primary, *additional]:
        real = canonical(path)
        if real in seen:
            continue
        seen.add(real)
        merged.append(path)
    return merged
