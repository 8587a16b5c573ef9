"""Resources: settings, skills, prompt templates, themes, context files and the system prompt."""

from pi_core.resources.context_files import (
    ContextFile,
    discover_append_system_prompt_file,
    discover_system_prompt_file,
    load_context_files,
    resolve_prompt_input,
)
from pi_core.resources.diagnostics import ResourceCollision, ResourceDiagnostic, SourceInfo
from pi_core.resources.entry_points import RESOURCES_GROUP, PackageFolder, package_folders
from pi_core.resources.frontmatter import FrontmatterError, parse_frontmatter, strip_frontmatter
from pi_core.resources.prompt_templates import (
    PromptTemplate,
    expand_prompt_template,
    load_prompt_templates,
    parse_command_args,
    substitute_args,
)
from pi_core.resources.resource_loader import PluginResources, ResourceLoader
from pi_core.resources.settings import (
    Settings,
    SettingsFileError,
    SettingsManager,
    SettingsProblem,
    SettingsScope,
)
from pi_core.resources.skills import (
    Skill,
    expand_skill_command,
    format_skills_for_prompt,
    load_skill_file,
    load_skills,
    load_skills_from_dir,
)
from pi_core.resources.system_prompt import (
    DocPaths,
    SystemPromptOptions,
    ToolPrompt,
    build_system_prompt,
    tool_options,
)
from pi_core.resources.themes import ThemeFile, load_themes

__all__ = [
    "RESOURCES_GROUP",
    "ContextFile",
    "DocPaths",
    "FrontmatterError",
    "PackageFolder",
    "PluginResources",
    "PromptTemplate",
    "ResourceCollision",
    "ResourceDiagnostic",
    "ResourceLoader",
    "Settings",
    "SettingsFileError",
    "SettingsManager",
    "SettingsProblem",
    "SettingsScope",
    "Skill",
    "SourceInfo",
    "SystemPromptOptions",
    "ThemeFile",
    "ToolPrompt",
    "build_system_prompt",
    "discover_append_system_prompt_file",
    "discover_system_prompt_file",
    "expand_prompt_template",
    "expand_skill_command",
    "format_skills_for_prompt",
    "load_context_files",
    "load_prompt_templates",
    "load_skill_file",
    "load_skills",
    "load_skills_from_dir",
    "load_themes",
    "package_folders",
    "parse_command_args",
    "parse_frontmatter",
    "resolve_prompt_input",
    "strip_frontmatter",
    "substitute_args",
    "tool_options",
]
