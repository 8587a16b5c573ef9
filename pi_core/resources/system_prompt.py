"""Building the system prompt exactly as pi 0.73.1 does: tools, guidelines, docs, context files,
skills, date and working directory."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from datetime import date
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from pi_core.resources.context_files import ContextFile
from pi_core.resources.frontmatter import js_trim
from pi_core.resources.skills import Skill, format_skills_for_prompt

DEFAULT_TOOL_NAMES = ("read", "bash", "edit", "write")

INTRO = (
    "You are an expert coding assistant operating inside pi, a coding agent harness. "
    "You help users by reading files, executing commands, editing code, and writing new files."
)
DOCS_TOPICS = (
    "extensions (docs/extensions.md, examples/extensions/), themes (docs/themes.md), "
    "skills (docs/skills.md), prompt templates (docs/prompt-templates.md), "
    "TUI components (docs/tui.md), keybindings (docs/keybindings.md), "
    "SDK integrations (docs/sdk.md), custom providers (docs/custom-provider.md), "
    "adding models (docs/models.md), pi packages (docs/packages.md)"
)


class DocPaths(BaseModel):
    """Where the prompt tells the model pi's own documentation lives."""

    readme: str
    docs: str
    examples: str


def default_doc_paths() -> DocPaths:
    """Return this installation's README, docs and examples (pi's layout, our package root)."""
    root = Path(__file__).resolve().parent.parent.parent
    return DocPaths(
        readme=str(root / "README.md"),
        docs=str(root / "docs"),
        examples=str(root / "docs" / "examples"),
    )


class ToolPrompt(BaseModel):
    """What the system prompt says about one tool: a one-line snippet and its guidelines."""

    name: str
    snippet: str | None = None
    guidelines: list[str] = Field(default_factory=list)


class SystemPromptOptions(BaseModel):
    """Everything `build_system_prompt` needs; None tools means pi's default four (unlisted)."""

    cwd: str
    custom_prompt: str | None = None
    append_system_prompt: str | None = None
    selected_tools: list[str] | None = None
    tool_snippets: dict[str, str] = Field(default_factory=dict)
    prompt_guidelines: list[str] = Field(default_factory=list)
    context_files: list[ContextFile] = Field(default_factory=list)
    skills: list[Skill] = Field(default_factory=list)
    today: date | None = None
    doc_paths: DocPaths | None = None


def normalize_snippet(text: str | None) -> str | None:
    """Collapse a snippet to one line (None when empty)."""
    if not text:
        return None
    one_line = js_trim(re.sub(r"\s+", " ", re.sub(r"[\r\n]+", " ", text)))
    return one_line or None


def normalize_guidelines(guidelines: Iterable[str] | None) -> list[str]:
    """Trim guidelines, drop empty ones and duplicates, keep the order."""
    unique: dict[str, None] = {}
    for guideline in guidelines or ():
        trimmed = js_trim(guideline)
        if trimmed:
            unique[trimmed] = None
    return list(unique)


def tool_prompt(tool: Any) -> ToolPrompt:
    """Read a tool's `name`, `prompt_snippet` and `prompt_guidelines` (the last two optional)."""
    return ToolPrompt(
        name=tool.name,
        snippet=normalize_snippet(getattr(tool, "prompt_snippet", None)),
        guidelines=normalize_guidelines(getattr(tool, "prompt_guidelines", None)),
    )


def tool_options(tools: Sequence[Any]) -> dict[str, Any]:
    """Return `selected_tools`, `tool_snippets` and `prompt_guidelines` for active tools."""
    prompts = [t if isinstance(t, ToolPrompt) else tool_prompt(t) for t in tools]
    return {
        "selected_tools": [p.name for p in prompts],
        "tool_snippets": {p.name: p.snippet for p in prompts if p.snippet},
        "prompt_guidelines": [g for p in prompts for g in p.guidelines],
    }


def _context_section(files: Sequence[ContextFile]) -> str:
    if not files:
        return ""
    text = "\n\n# Project Context\n\nProject-specific instructions and guidelines:\n\n"
    for file in files:
        text += f"## {file.path}\n\n{file.content}\n\n"
    return text


def _guidelines(tools: Sequence[str], extra: Sequence[str]) -> list[str]:
    ordered: dict[str, None] = {}
    has = set(tools).__contains__
    exploration = has("grep") or has("find") or has("ls")
    if has("bash") and not exploration:
        ordered["Use bash for file operations like ls, rg, find"] = None
    elif has("bash") and exploration:
        ordered[
            "Prefer grep/find/ls tools over bash for file exploration (faster, respects .gitignore)"
        ] = None
    for guideline in extra:
        trimmed = js_trim(guideline)
        if trimmed:
            ordered.setdefault(trimmed, None)
    ordered.setdefault("Be concise in your responses", None)
    ordered.setdefault("Show file paths clearly when working with files", None)
    return list(ordered)


def _tail(options: SystemPromptOptions, has_read: bool) -> str:
    text = _context_section(options.context_files)
    if has_read and options.skills:
        text += format_skills_for_prompt(options.skills)
    today = options.today or date.today()
    text += f"\nCurrent date: {today.isoformat()}"
    text += f"\nCurrent working directory: {options.cwd.replace(chr(92), '/')}"
    return text


def build_system_prompt(options: SystemPromptOptions) -> str:
    """Return the system prompt for these options, byte for byte as pi 0.73.1 builds it."""
    append = f"\n\n{options.append_system_prompt}" if options.append_system_prompt else ""
    if options.custom_prompt:
        has_read = options.selected_tools is None or "read" in options.selected_tools
        return options.custom_prompt + append + _tail(options, has_read)
    tools = list(DEFAULT_TOOL_NAMES if options.selected_tools is None else options.selected_tools)
    visible = [name for name in tools if options.tool_snippets.get(name)]
    tools_list = (
        "\n".join(f"- {name}: {options.tool_snippets[name]}" for name in visible)
        if visible
        else "(none)"
    )
    guidelines = "\n".join(f"- {g}" for g in _guidelines(tools, options.prompt_guidelines))
    docs = options.doc_paths or default_doc_paths()
    prompt = (
        f"{INTRO}\n\nAvailable tools:\n{tools_list}\n\n"
        "In addition to the tools above, you may have access to other custom tools depending on "
        f"the project.\n\nGuidelines:\n{guidelines}\n\n"
        "Pi documentation (read only when the user asks about pi itself, its SDK, extensions, "
        "themes, skills, or TUI):\n"
        f"- Main documentation: {docs.readme}\n"
        f"- Additional docs: {docs.docs}\n"
        f"- Examples: {docs.examples} (extensions, custom tools, SDK)\n"
        f"- When asked about: {DOCS_TOPICS}\n"
        "- When working on pi topics, read the docs and examples, and follow .md "
        "cross-references before implementing\n"
        "- Always read pi .md files completely and follow links to related docs "
        "(e.g., tui.md for TUI API details)"
    )
    return prompt + append + _tail(options, "read" in tools)
