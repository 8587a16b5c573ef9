"""Building the system prompt: introduction, tools, guidelines, documentation pointers, context
files, skills, date and working directory, in pi 0.73.1's order and layout."""

import re
from collections.abc import Iterable, Sequence
from datetime import date
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from pi_core.js_text import js_trim
from pi_core.model_defaults import empty_list
from pi_core.resources.context_files import ContextFile
from pi_core.resources.skills import Skill, format_skills_for_prompt

DEFAULT_TOOL_NAMES = ("read", "bash", "edit", "write")

INTRO = (
    "You are the coding assistant of pi, an agent harness that runs in the user's terminal. "
    "You work on the user's project for them: you look at files, run shell commands, change "
    "code and create files."
)
DOC_TOPICS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("plugins and hooks", ("writing-a-plugin.md", "hooks.md")),
    ("installing plugins", ("installing-plugins.md",)),
    ("the interactive REPL and its keys", ("repl.md",)),
    ("command-line options", ("cli.md",)),
    ("skills, prompt templates, context files and this prompt", ("resources.md",)),
    ("providers and models", ("providers.md",)),
    ("sessions and compaction", ("sessions.md", "compaction.md")),
    ("the Python SDK", ("sdk.md", "api.md")),
    ("MCP servers", ("mcp.md",)),
    ("Claude Code compatibility", ("claude-code.md",)),
    ("permissions and sandboxing", ("security.md",)),
)
"""Topic → the files under the docs folder the prompt names for it (all shipped)."""


class DocPaths(BaseModel):
    """Where the prompt tells the model this project's own documentation lives."""

    readme: str
    docs: str
    examples: str


def default_doc_paths() -> DocPaths:
    """Return this installation's README, docs and examples: inside `pi_core` (a wheel), else
    at the root of the checkout (an editable install)."""
    package = Path(__file__).resolve().parent.parent
    root = package if (package / "docs").is_dir() else package.parent
    return DocPaths(
        readme=str(root / "README.md"),
        docs=str(root / "docs"),
        examples=str(root / "docs" / "examples"),
    )


class ToolPrompt(BaseModel):
    """What the system prompt says about one tool: a one-line snippet and its guidelines."""

    name: str
    snippet: str | None = None
    guidelines: list[str] = Field(default_factory=empty_list)


class SystemPromptOptions(BaseModel):
    """Everything `build_system_prompt` needs; None tools means pi's default four (unlisted)."""

    cwd: str
    custom_prompt: str | None = None
    append_system_prompt: str | None = None
    selected_tools: list[str] | None = None
    tool_snippets: dict[str, str] = Field(default_factory=dict)
    prompt_guidelines: list[str] = Field(default_factory=empty_list)
    context_files: list[ContextFile] = Field(default_factory=empty_list)
    skills: list[Skill] = Field(default_factory=empty_list)
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
    text = "\n\n# Project Context\n\nInstructions this project gives you:\n\n"
    for file in files:
        text += f"## {file.path}\n\n{file.content}\n\n"
    return text


def _guidelines(tools: Sequence[str], extra: Sequence[str]) -> list[str]:
    ordered: dict[str, None] = {}
    has = set(tools).__contains__
    exploration = has("grep") or has("find") or has("ls")
    if has("bash") and not exploration:
        ordered["Run ls, rg and find through bash to look around the file tree"] = None
    elif has("bash") and exploration:
        ordered[
            "To explore files, reach for the grep, find and ls tools before bash: they are "
            "quicker and skip what .gitignore excludes"
        ] = None
    for guideline in extra:
        trimmed = js_trim(guideline)
        if trimmed:
            ordered.setdefault(trimmed, None)
    ordered.setdefault("Keep your answers short", None)
    ordered.setdefault("Name each file you read or change by its path", None)
    return list(ordered)


def _tail(options: SystemPromptOptions, has_read: bool) -> str:
    text = _context_section(options.context_files)
    if has_read and options.skills:
        text += format_skills_for_prompt(options.skills)
    today = options.today or date.today()
    text += f"\nCurrent date: {today.isoformat()}"
    text += f"\nCurrent working directory: {options.cwd.replace(chr(92), '/')}"
    return text


def _docs_section(docs: DocPaths) -> str:
    topics = "\n".join(
        f"  - {topic}: " + ", ".join(f"{docs.docs}/{name}" for name in names)
        for topic, names in DOC_TOPICS
    )
    return (
        "Documentation of pi (consult it when a question is about this harness, such as its "
        "plugins, hooks, SDK, skills, REPL or settings, and not otherwise):\n"
        f"- Overview: {docs.readme}\n"
        f"- Reference folder: {docs.docs}\n"
        f"- Example plugins and SDK scripts: {docs.examples}\n"
        f"- Which file covers what:\n{topics}\n"
        "- Before building something pi-specific, read the relevant file to the end and the "
        "files it links to"
    )


def build_system_prompt(options: SystemPromptOptions) -> str:
    """Return the system prompt for these options, with pi 0.73.1's parts in pi's order."""
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
    prompt = (
        f"{INTRO}\n\nAvailable tools:\n{tools_list}\n\n"
        "The project may also give you further tools beyond these.\n\n"
        f"Guidelines:\n{guidelines}\n\n{_docs_section(options.doc_paths or default_doc_paths())}"
    )
    return prompt + append + _tail(options, "read" in tools)
