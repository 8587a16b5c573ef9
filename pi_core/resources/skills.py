"""Skills: `SKILL.md` files with a name and a description, validated like pi (Agent Skills spec).

A skill loads with warnings for a bad name or an over-long description; one without a
description, or with frontmatter that is not valid YAML, is skipped with a warning.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from pi_core.js_text import js_trim
from pi_core.messages.base import WireModel
from pi_core.resources.diagnostics import ResourceDiagnostic, SourceInfo, collision
from pi_core.resources.discovery import canonical, collect_skill_entries, resolve_from
from pi_core.resources.frontmatter import (
    FrontmatterError,
    parse_frontmatter,
    strip_frontmatter,
)

MAX_NAME_LENGTH = 64
MAX_DESCRIPTION_LENGTH = 1024
SKILL_COMMAND_PREFIX = "/skill:"
_NAME_CHARS = re.compile(r"[a-z0-9-]+")

InfoFor = Callable[[str], SourceInfo | None]


class Skill(WireModel):
    """A loaded skill: what the model sees (name, description, location) and where it lives."""

    name: str
    description: str
    file_path: str
    base_dir: str
    disable_model_invocation: bool = False
    source_info: SourceInfo | None = None


@dataclass
class SkillsResult:
    """Skills in precedence order, and every warning and collision found on the way."""

    skills: list[Skill] = field(default_factory=list)
    diagnostics: list[ResourceDiagnostic] = field(default_factory=list)


def js_length(text: str) -> int:
    """Return a string's length in UTF-16 code units (JavaScript's `.length`)."""
    return len(text.encode("utf-16-le")) // 2


def validate_name(name: str, parent_dir_name: str) -> list[str]:
    """Return the spec violations of a skill name (empty when it is valid)."""
    errors = []
    if name != parent_dir_name:
        errors.append(f'name "{name}" does not match parent directory "{parent_dir_name}"')
    if js_length(name) > MAX_NAME_LENGTH:
        errors.append(f"name exceeds {MAX_NAME_LENGTH} characters ({js_length(name)})")
    if not _NAME_CHARS.fullmatch(name):
        errors.append("name contains invalid characters (must be lowercase a-z, 0-9, hyphens only)")
    if name.startswith("-") or name.endswith("-"):
        errors.append("name must not start or end with a hyphen")
    if "--" in name:
        errors.append("name must not contain consecutive hyphens")
    return errors


def validate_description(description: str | None) -> list[str]:
    """Return the spec violations of a skill description (empty when it is valid)."""
    if not description or js_trim(description) == "":
        return ["description is required"]
    if js_length(description) > MAX_DESCRIPTION_LENGTH:
        length = js_length(description)
        return [f"description exceeds {MAX_DESCRIPTION_LENGTH} characters ({length})"]
    return []


def load_skill_file(
    path: str, source_info: SourceInfo | None = None
) -> tuple[Skill | None, list[ResourceDiagnostic]]:
    """Read one skill file; return the skill (None when skipped) and its warnings."""
    diagnostics: list[ResourceDiagnostic] = []

    def warn(message: str) -> None:
        diagnostics.append(ResourceDiagnostic(type="warning", message=message, path=path))

    try:
        with open(path, encoding="utf-8") as handle:
            frontmatter, _body = parse_frontmatter(handle.read())
    except (OSError, UnicodeDecodeError) as error:
        warn(f"cannot read skill file: {error}")
        return None, diagnostics
    except FrontmatterError as error:
        warn(str(error))
        return None, diagnostics
    skill_dir = os.path.dirname(path)
    parent_name = os.path.basename(skill_dir)
    description = frontmatter.get("description")
    raw_name = frontmatter.get("name")
    if description and not isinstance(description, str):
        warn("description must be a string")
        return None, diagnostics
    if raw_name and not isinstance(raw_name, str):
        warn("name must be a string")
        return None, diagnostics
    for message in validate_description(description):
        warn(message)
    name = raw_name or parent_name
    for message in validate_name(name, parent_name):
        warn(message)
    if not description or js_trim(description) == "":
        return None, diagnostics
    skill = Skill(
        name=name,
        description=description,
        file_path=path,
        base_dir=skill_dir,
        disable_model_invocation=frontmatter.get("disable-model-invocation") is True,
        source_info=source_info,
    )
    return skill, diagnostics


def load_skills_from_dir(folder: str, info_for: InfoFor | None = None) -> SkillsResult:
    """Load every skill in a folder (no collision checks: see `load_skills`)."""
    result = SkillsResult()
    for path in collect_skill_entries(folder, "pi"):
        skill, diagnostics = load_skill_file(path, info_for(path) if info_for else None)
        result.diagnostics += diagnostics
        if skill is not None:
            result.skills.append(skill)
    return result


def load_skills(paths: Sequence[str], cwd: str, info_for: InfoFor | None = None) -> SkillsResult:
    """Load skills from files and folders in order; the first skill of a name wins."""
    by_name: dict[str, Skill] = {}
    real_paths: set[str] = set()
    diagnostics: list[ResourceDiagnostic] = []
    collisions: list[ResourceDiagnostic] = []

    def add(found: SkillsResult) -> None:
        diagnostics.extend(found.diagnostics)
        for skill in found.skills:
            real = canonical(skill.file_path)
            if real in real_paths:
                continue
            existing = by_name.get(skill.name)
            if existing is not None:
                collisions.append(
                    collision("skill", skill.name, existing.file_path, skill.file_path)
                )
                continue
            by_name[skill.name] = skill
            real_paths.add(real)

    for raw in paths:
        path = resolve_from(cwd, raw)
        if not os.path.exists(path):
            diagnostics.append(
                ResourceDiagnostic(type="warning", message="skill path does not exist", path=path)
            )
        elif os.path.isdir(path):
            add(load_skills_from_dir(path, info_for))
        elif os.path.isfile(path) and path.endswith(".md"):
            skill, found = load_skill_file(path, info_for(path) if info_for else None)
            add(SkillsResult([skill] if skill else [], found))
        else:
            diagnostics.append(
                ResourceDiagnostic(
                    type="warning", message="skill path is not a markdown file", path=path
                )
            )
    return SkillsResult(list(by_name.values()), diagnostics + collisions)


def escape_xml(text: str) -> str:
    """Escape the five XML special characters."""
    return (
        text.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&quot;")
        .replace("'", "&apos;")
    )


def format_skills_for_prompt(skills: Sequence[Skill]) -> str:
    """Return the system-prompt section listing the skills the model may use ('' if none)."""
    visible = [skill for skill in skills if not skill.disable_model_invocation]
    if not visible:
        return ""
    lines = [
        "\n\nSkills below hold extra instructions for particular kinds of work.",
        "If a task fits a skill's description, open its file with the read tool first.",
        "Paths inside a skill file are relative to the folder holding that SKILL.md: join them "
        "to that folder and pass the absolute result to your tools.",
        "",
        "<available_skills>",
    ]
    for skill in visible:
        lines += [
            "  <skill>",
            f"    <name>{escape_xml(skill.name)}</name>",
            f"    <description>{escape_xml(skill.description)}</description>",
            f"    <location>{escape_xml(skill.file_path)}</location>",
            "  </skill>",
        ]
    lines.append("</available_skills>")
    return "\n".join(lines)


def skill_block(skill: Skill, body: str) -> str:
    """Wrap a skill's body the way `/skill:name` sends it."""
    return (
        f'<skill name="{skill.name}" location="{skill.file_path}">\n'
        f"References are relative to {skill.base_dir}.\n\n{body}\n</skill>"
    )


def expand_skill_command(
    text: str,
    skills: Sequence[Skill],
    on_error: Callable[[Skill, str], None] | None = None,
) -> str:
    """Expand `/skill:name args` to the skill's content plus the args; other text is returned."""
    if not text.startswith(SKILL_COMMAND_PREFIX):
        return text
    space = text.find(" ")
    name = text[len(SKILL_COMMAND_PREFIX) :] if space == -1 else text[7:space]
    args = "" if space == -1 else js_trim(text[space + 1 :])
    skill = next((s for s in skills if s.name == name), None)
    if skill is None:
        return text
    try:
        with open(skill.file_path, encoding="utf-8") as handle:
            body = js_trim(strip_frontmatter(handle.read()))
    except (OSError, UnicodeDecodeError) as error:
        if on_error is not None:
            on_error(skill, str(error))
        return text
    block = skill_block(skill, body)
    return f"{block}\n\n{args}" if args else block
