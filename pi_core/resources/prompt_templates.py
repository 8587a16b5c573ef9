"""Prompt templates: markdown files that `/name args` expands, with pi's argument placeholders.

`$1`, `$2`… are positional arguments, `$@` and `$ARGUMENTS` all of them, `${@:N}` those from the
Nth on and `${@:N:L}` L of them from the Nth. Arguments split on spaces and tabs; single or double
quotes group words (there are no escapes).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from pi_core.js_text import js_trim
from pi_core.messages.base import WireModel
from pi_core.resources.diagnostics import ResourceDiagnostic, SourceInfo, collision
from pi_core.resources.discovery import list_entries, resolve_from
from pi_core.resources.frontmatter import FrontmatterError, parse_frontmatter

DESCRIPTION_PREVIEW = 60
_POSITIONAL = re.compile(r"\$(\d+)")
_SLICE = re.compile(r"\$\{@:(\d+)(?::(\d+))?\}")
_ARGUMENTS = re.compile(r"\$ARGUMENTS")
_ALL = re.compile(r"\$@")
_JS_REPLACEMENT = re.compile(r"\$([$&`']|\d{1,2}|<[^>]*>)")

InfoFor = Callable[[str], SourceInfo | None]


class PromptTemplate(WireModel):
    """A template: `/name` expands `content` with the arguments typed after it."""

    name: str
    description: str
    content: str
    file_path: str
    argument_hint: str | None = None
    source_info: SourceInfo | None = None


@dataclass
class PromptsResult:
    """Templates in precedence order, and the warnings and collisions found on the way."""

    prompts: list[PromptTemplate] = field(default_factory=list)
    diagnostics: list[ResourceDiagnostic] = field(default_factory=list)


def parse_command_args(text: str) -> list[str]:
    """Split an argument string like pi: spaces/tabs separate, quotes group, empty args vanish."""
    args: list[str] = []
    current = ""
    quote: str | None = None
    for char in text:
        if quote:
            if char == quote:
                quote = None
            else:
                current += char
        elif char in ("'", '"'):
            quote = char
        elif char in (" ", "\t"):
            if current:
                args.append(current)
                current = ""
        else:
            current += char
    if current:
        args.append(current)
    return args


def _js_replace(pattern: re.Pattern[str], text: str, replacement: str) -> str:
    """Replace every match like JavaScript's `replace(regex, string)`, `$&`/`$$`/… included."""

    def expand(match: re.Match[str]) -> str:
        def one(token: re.Match[str]) -> str:
            code = token.group(1)
            if code == "$":
                return "$"
            if code == "&":
                return match.group(0)
            if code == "`":
                return text[: match.start()]
            if code == "'":
                return text[match.end() :]
            return token.group(0)  # $n and $<name>: these patterns have no groups

        return _JS_REPLACEMENT.sub(one, replacement)

    return pattern.sub(expand, text)


def substitute_args(content: str, args: Sequence[str]) -> str:
    """Fill a template's placeholders from `args`, in pi's order (positional, slices, all)."""

    def positional(match: re.Match[str]) -> str:
        index = int(match.group(1)) - 1
        return args[index] if 0 <= index < len(args) else ""

    def sliced(match: re.Match[str]) -> str:
        start = max(int(match.group(1)) - 1, 0)
        if match.group(2) is not None:
            return " ".join(args[start : start + int(match.group(2))])
        return " ".join(args[start:])

    result = _POSITIONAL.sub(positional, content)
    result = _SLICE.sub(sliced, result)
    everything = " ".join(args)
    result = _js_replace(_ARGUMENTS, result, everything)
    return _js_replace(_ALL, result, everything)


def _js_slice(text: str, units: int) -> str:
    encoded = text.encode("utf-16-le")[: units * 2]
    return encoded.decode("utf-16-le", errors="replace")


def load_template_file(
    path: str, source_info: SourceInfo | None = None
) -> tuple[PromptTemplate | None, list[ResourceDiagnostic]]:
    """Read one template; the description is the frontmatter's, else the first line (60 chars)."""
    try:
        with open(path, encoding="utf-8") as handle:
            frontmatter, body = parse_frontmatter(handle.read())
    except (OSError, UnicodeDecodeError, FrontmatterError) as error:
        message = str(error) if isinstance(error, FrontmatterError) else f"cannot read: {error}"
        return None, [ResourceDiagnostic(type="warning", message=message, path=path)]
    raw_description = frontmatter.get("description")
    description = str(raw_description) if raw_description else ""
    if not description:
        first = next((line for line in body.split("\n") if js_trim(line)), None)
        if first is not None:
            description = _js_slice(first, DESCRIPTION_PREVIEW)
            if len(first.encode("utf-16-le")) // 2 > DESCRIPTION_PREVIEW:
                description += "..."
    hint = frontmatter.get("argument-hint")
    name = os.path.basename(path)
    template = PromptTemplate(
        name=name[:-3] if name.endswith(".md") else name,
        description=description,
        content=body,
        file_path=path,
        argument_hint=str(hint) if hint else None,
        source_info=source_info,
    )
    return template, []


def load_templates_from_dir(folder: str, info_for: InfoFor | None = None) -> PromptsResult:
    """Load the `.md` files directly inside a folder (not recursive)."""
    result = PromptsResult()
    for name, full, _is_dir, is_file in list_entries(folder):
        if is_file and name.endswith(".md"):
            template, diagnostics = load_template_file(full, info_for(full) if info_for else None)
            result.diagnostics += diagnostics
            if template is not None:
                result.prompts.append(template)
    return result


def load_prompt_templates(
    paths: Sequence[str], cwd: str, info_for: InfoFor | None = None
) -> PromptsResult:
    """Load templates from files and folders in order; the first template of a name wins."""
    loaded = PromptsResult()
    for raw in paths:
        path = resolve_from(cwd, raw)
        if os.path.isdir(path):
            found = load_templates_from_dir(path, info_for)
            loaded.prompts += found.prompts
            loaded.diagnostics += found.diagnostics
        elif os.path.isfile(path) and path.endswith(".md"):
            template, diagnostics = load_template_file(path, info_for(path) if info_for else None)
            loaded.diagnostics += diagnostics
            if template is not None:
                loaded.prompts.append(template)
    return dedupe_templates(loaded)


def dedupe_templates(loaded: PromptsResult) -> PromptsResult:
    """Keep the first template of each name; later ones become collision diagnostics."""
    by_name: dict[str, PromptTemplate] = {}
    collisions = []
    for template in loaded.prompts:
        existing = by_name.get(template.name)
        if existing is None:
            by_name[template.name] = template
            continue
        collisions.append(
            collision(
                "prompt",
                template.name,
                existing.file_path,
                template.file_path,
                label=f"/{template.name}",
            )
        )
    return PromptsResult(list(by_name.values()), loaded.diagnostics + collisions)


def expand_prompt_template(text: str, templates: Sequence[PromptTemplate]) -> str:
    """Expand `/name args` when `name` is a template; any other text is returned unchanged."""
    if not text.startswith("/"):
        return text
    space = text.find(" ")
    name = text[1:] if space == -1 else text[1:space]
    args = "" if space == -1 else text[space + 1 :]
    template = next((t for t in templates if t.name == name), None)
    if template is None:
        return text
    return substitute_args(template.content, parse_command_args(args))
