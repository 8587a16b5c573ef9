"""What grep, find and ls share: the bracketed notes on what cut a listing, and their views."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pi_core.tools import ToolResult, TruncationResult
from pi_plugin_tools.render import as_details, listing_view, size_limit_warning
from pi_plugin_tools.truncate import DEFAULT_MAX_BYTES, format_size

if TYPE_CHECKING:
    from rich.text import Text

    from pi_core.messages import WireModel


def listing_result(
    output: str,
    details: WireModel,
    limit_notice: str | None,
    truncation: TruncationResult,
    extra_notices: list[str] | None = None,
) -> ToolResult:
    """Append `[limit. byte limit. extras]` notes; details are kept only when something was cut."""
    notices = [limit_notice] if limit_notice else []
    if truncation.truncated:
        notices.append(f"{format_size(DEFAULT_MAX_BYTES)} limit reached")
        details.truncation = truncation  # type: ignore[attr-defined]
    notices.extend(extra_notices or [])
    if notices:
        output += f"\n\n[{'. '.join(notices)}]"
    return ToolResult.text(output, details=details if notices else None)


def listing_result_view(
    result: ToolResult,
    options: dict[str, bool],
    theme: Any,
    max_lines: int,
    model: type[WireModel],
    limit_field: str,
    limit_label: str,
    extra_warnings: list[str] | None = None,
) -> Text:
    """Render a listing's first rows and a `[Truncated: …]` line saying what cut it."""
    warnings: list[str] = []
    details = as_details(result, model)
    limit = getattr(details, limit_field, None) if details is not None else None
    if limit:
        warnings.append(f"{limit} {limit_label}")
    size_warning = size_limit_warning(getattr(details, "truncation", None))
    if size_warning:
        warnings.append(size_warning)
    warnings.extend(extra_warnings or [])
    return listing_view(result, options, theme, max_lines, warnings)
