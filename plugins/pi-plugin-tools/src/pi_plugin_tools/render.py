"""Shared pieces of the REPL views of the tools (rich is imported only when a view is drawn)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, TypeVar

from pydantic import BaseModel

from pi_core.messages import ImageContent, TextContent
from pi_core.terminal_text import sanitize
from pi_core.tools import TruncationResult
from pi_plugin_tools.paths import shorten_path
from pi_plugin_tools.truncate import DEFAULT_MAX_BYTES, format_size

if TYPE_CHECKING:
    from rich.text import Text

    from pi_core.tools import ToolResult

DetailsT = TypeVar("DetailsT", bound=BaseModel)

_ANNOTATION = re.compile("[\ufff9-\ufffb]")  # interlinear annotation marks: invisible

DEFAULT_STYLES: dict[str, str] = {
    "toolTitle": "bold",
    "accent": "cyan",
    "toolOutput": "",
    "muted": "dim",
    "dim": "dim",
    "warning": "yellow",
    "error": "red",
    "success": "green",
    "toolDiffAdded": "green",
    "toolDiffRemoved": "red",
    "toolDiffContext": "dim",
}


def style(theme: Any, key: str) -> str:
    """Return the rich style for a theme colour name; themes may offer `style(key)`."""
    lookup = getattr(theme, "style", None)
    if callable(lookup):
        try:
            value = lookup(key)
        except Exception:
            value = None
        if isinstance(value, str):
            return value
    return DEFAULT_STYLES.get(key, "")


def option(options: dict[str, bool] | None, name: str) -> bool:
    """Read a render option given in snake_case or pi's camelCase (`is_partial`/`isPartial`)."""
    if not options:
        return False
    head, *rest = name.split("_")
    camel = head + "".join(part.title() for part in rest)
    return bool(options.get(name, options.get(camel, False)))


def arg(args: Any, name: str) -> Any:
    """Read one argument from a parameter model or a raw dict (partial calls arrive as dicts)."""
    if isinstance(args, dict):
        return args.get(name)
    return getattr(args, name, None)


def as_details(result: ToolResult, model: type[DetailsT]) -> DetailsT | None:
    """Return `result.details` as `model`: results read back from a session hold plain dicts."""
    details = result.details
    if details is None or isinstance(details, model):
        return details
    if isinstance(details, dict):
        try:
            return model.model_validate(details)
        except ValueError:
            return None
    return None


def path_label(path: Any) -> str:
    """Return a path argument for display (`~` for home), or `...` while it is still missing."""
    return shorten_path(path) if isinstance(path, str) and path else "..."


def text_output(result: ToolResult) -> str:
    """Return the result's text for display, cleaned by `sanitize` (no escape sequence or control
    character reaches the terminal), images named."""
    parts: list[str] = []
    for block in result.content:
        if isinstance(block, TextContent):
            parts.append(_ANNOTATION.sub("", sanitize(block.text)))
        elif isinstance(block, ImageContent):
            parts.append(f"[image: {block.mime_type}]")
    return "\n".join(parts)


def head_lines(text: str, max_lines: int, expanded: bool) -> tuple[list[str], int]:
    """Return the first lines to show and how many were left out."""
    lines = text.split("\n")
    if expanded or len(lines) <= max_lines:
        return lines, 0
    return lines[:max_lines], len(lines) - max_lines


def tail_lines(
    text: str, max_lines: int, expanded: bool, width: int | None = None
) -> tuple[list[str], int]:
    """Return the last lines to show and how many earlier ones were left out; with a `width`,
    lines are the screen rows the text wraps to (as pi counts them)."""
    lines = text.split("\n")
    if width and not expanded:
        from pi_core.terminal_text import screen_rows

        lines = screen_rows(lines, width)
    if expanded or len(lines) <= max_lines:
        return lines, 0
    return lines[-max_lines:], len(lines) - max_lines


def new_text() -> Text:
    """Return an empty rich Text (imports rich)."""
    from rich.text import Text

    return Text()


def listing_view(
    result: ToolResult,
    options: dict[str, bool] | None,
    theme: Any,
    max_lines: int,
    warnings: list[str],
) -> Text:
    """Render a list-like result (grep, find, ls): the first lines, then a truncation warning."""
    text = new_text()
    output = text_output(result).strip()
    if output:
        shown, remaining = head_lines(output, max_lines, option(options, "expanded"))
        text.append("\n".join(shown), style(theme, "toolOutput"))
        if remaining > 0:
            text.append(f"\n... ({remaining} more lines)", style(theme, "muted"))
    if warnings:
        if output:
            text.append("\n")
        text.append(f"[Truncated: {', '.join(warnings)}]", style(theme, "warning"))
    return text


def size_limit_warning(truncation: TruncationResult | None) -> str | None:
    """Return `50.0KB limit` when the byte limit cut a listing."""
    if truncation is None or not truncation.truncated:
        return None
    return f"{format_size(truncation.max_bytes or DEFAULT_MAX_BYTES)} limit"
