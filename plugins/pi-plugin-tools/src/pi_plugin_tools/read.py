"""The `read` tool: a text file with offset/limit and pi's truncation notes, or an image."""

from __future__ import annotations

import asyncio
import base64
import functools
import io
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, BinaryIO

from pi_core import hookimpl
from pi_core.messages import ImageContent, TextContent, UserContent
from pi_core.tools import (
    IMAGE_TOO_LARGE_NOTE,
    ReadToolDetails,
    ReadToolInput,
    Tool,
    ToolResult,
    ToolUpdateCallback,
    image_auto_resize,
)
from pi_plugin_tools.abort import abortable, check_aborted
from pi_plugin_tools.images import (
    MAX_INLINE_IMAGE_BASE64_BYTES,
    SNIFF_BYTES,
    detect_image_mime_type,
)
from pi_plugin_tools.operations import LocalReadOperations, session_operations
from pi_plugin_tools.paths import resolve_read_path, resolve_to_cwd
from pi_plugin_tools.read_resized import NON_VISION_NOTE, resized_image_result
from pi_plugin_tools.render import (
    arg,
    as_details,
    head_lines,
    new_text,
    option,
    path_label,
    style,
    text_output,
)
from pi_plugin_tools.textfile import BINARY_SNIFF_BYTES, looks_binary
from pi_plugin_tools.textscan import LineWindow, scan_lines
from pi_plugin_tools.truncate import (
    DEFAULT_MAX_BYTES,
    DEFAULT_MAX_LINES,
    format_size,
)

if TYPE_CHECKING:
    from rich.text import Text

    from pi_core import ExtensionContext
    from pi_core.abort import AbortSignal
    from pi_core.tools import ReadOperations

DESCRIPTION = (
    "Returns what a file contains. Text files and jpg, png, gif and webp images are supported; "
    "an image is attached to the result. Text is cut at "
    f"{DEFAULT_MAX_LINES} lines or {DEFAULT_MAX_BYTES // 1024}KB, whichever limit comes first. "
    "Page through a long file with offset and limit, calling again with a later offset until "
    "you have read as much as you need."
)


def _open_error(path: str, error: OSError) -> Exception:
    if isinstance(error, FileNotFoundError):
        return FileNotFoundError(f"File not found: {path}")
    if isinstance(error, IsADirectoryError):
        return IsADirectoryError(f"Cannot read {path}: it is a directory. Use ls to list it.")
    if isinstance(error, PermissionError):
        return PermissionError(f"Permission denied: {path}")
    return OSError(f"Cannot read {path}: {error.strerror or error}")


@dataclass
class _Image:
    mime_type: str
    data: bytes | None
    """None when the file is too large to send inline (it is then not read at all)."""


@dataclass
class _Text:
    window: LineWindow


class _Binary:
    pass


def _load(
    path: str,
    start: int,
    end: int | None,
    signal: AbortSignal | None,
    whole_images: Callable[[], bool] = lambda: False,
) -> _Image | _Text | _Binary:
    """Read what the tool needs of the file, in memory bounded by the output limits (an image
    over the inline limit only if `whole_images()`, to be resized)."""
    if os.path.isdir(path):
        raise _open_error(path, IsADirectoryError())
    try:
        with open(path, "rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            return _load_from(handle, size, start, end, signal, whole_images)
    except OSError as error:
        raise _open_error(path, error) from None


def _load_from(
    handle: BinaryIO,
    size: int,
    start: int,
    end: int | None,
    signal: AbortSignal | None,
    whole_images: Callable[[], bool],
) -> _Image | _Text | _Binary:
    head = handle.read(max(SNIFF_BYTES, BINARY_SNIFF_BYTES))
    mime_type = detect_image_mime_type(head[:SNIFF_BYTES])
    if mime_type is not None:
        too_large = 4 * ((size + 2) // 3) >= MAX_INLINE_IMAGE_BASE64_BYTES
        if too_large and not whole_images():
            return _Image(mime_type, None)
        return _Image(mime_type, head + handle.read())
    if looks_binary(head):
        return _Binary()
    handle.seek(0)
    window = scan_lines(
        handle, start, end, DEFAULT_MAX_LINES, DEFAULT_MAX_BYTES, lambda: check_aborted(signal)
    )
    return _Text(window)


async def _load_through(
    operations: ReadOperations,
    path: str,
    start: int,
    end: int | None,
    signal: AbortSignal | None,
    whole_images: Callable[[], bool],
) -> _Image | _Text | _Binary:
    """Load the file through a non-local back-end: it hands over the whole file."""
    try:
        await operations.access(path)
        data = await operations.read_file(path)
    except OSError as error:
        raise _open_error(path, error) from None
    return _load_from(io.BytesIO(data), len(data), start, end, signal, whole_images)


def _model_lacks_vision(ctx: ExtensionContext | None) -> bool:
    try:
        model = ctx.model if ctx is not None else None
    except Exception:
        return False
    return model is not None and "image" not in list(getattr(model, "input", ["image"]))


def image_result(data: bytes | None, mime_type: str, ctx: ExtensionContext | None) -> ToolResult:
    """Build pi's image answer: a text note and the image itself (if it is small enough)."""
    encoded = base64.b64encode(data).decode("ascii") if data is not None else None
    too_large = encoded is None or len(encoded) >= MAX_INLINE_IMAGE_BASE64_BYTES
    note = f"Read image file [{mime_type}]"
    if too_large:
        note += f"\n{IMAGE_TOO_LARGE_NOTE}"
    if _model_lacks_vision(ctx):
        note += f"\n{NON_VISION_NOTE}"
    content: list[UserContent] = [TextContent(text=note)]
    if encoded is not None and not too_large:
        content.append(ImageContent(data=encoded, mime_type=mime_type))
    return ToolResult(content=content)


def _selection(offset: int | None, limit: int | None) -> tuple[int, int | None]:
    """The 0-based first line and the exclusive end asked for (None: to the end of the file)."""
    start = max(0, offset - 1) if offset else 0
    return start, (start + limit if limit is not None else None)


def text_result(
    window: LineWindow, raw_path: str, offset: int | None, limit: int | None
) -> ToolResult:
    """Select the requested lines and add pi's continuation notes."""
    total = window.file_lines
    start, _ = _selection(offset, limit)
    start_display = start + 1
    if start >= total:
        raise ValueError(f"Offset {offset} is beyond end of file ({total} lines total)")
    user_limited = window.selected_lines if limit is not None else None
    truncation = window.truncation(DEFAULT_MAX_LINES, DEFAULT_MAX_BYTES)
    details: ReadToolDetails | None = None
    if truncation.first_line_exceeds_limit:
        size = format_size(window.head[0][1])
        output = (
            f"[Line {start_display} is {size}, exceeds {format_size(DEFAULT_MAX_BYTES)} limit. "
            f"Use bash: sed -n '{start_display}p' {raw_path} | head -c {DEFAULT_MAX_BYTES}]"
        )
        details = ReadToolDetails(truncation=truncation)
    elif truncation.truncated:
        end_display = start_display + truncation.output_lines - 1
        next_offset = end_display + 1
        output = truncation.content
        if truncation.truncated_by == "lines":
            output += (
                f"\n\n[Showing lines {start_display}-{end_display} of {total}. "
                f"Use offset={next_offset} to continue.]"
            )
        else:
            output += (
                f"\n\n[Showing lines {start_display}-{end_display} of {total} "
                f"({format_size(DEFAULT_MAX_BYTES)} limit). Use offset={next_offset} to continue.]"
            )
        details = ReadToolDetails(truncation=truncation)
    elif user_limited is not None and start + user_limited < total:
        remaining = total - (start + user_limited)
        next_offset = start + user_limited + 1
        output = (
            f"{truncation.content}\n\n[{remaining} more lines in file. "
            f"Use offset={next_offset} to continue.]"
        )
    else:
        output = truncation.content
    return ToolResult(content=[TextContent(text=output)], details=details)


class ReadTool(Tool[ReadToolInput]):
    """Read a text file (with offset/limit and truncation) or an image."""

    name = "read"
    label = "read"
    description = DESCRIPTION
    parameters = ReadToolInput
    prompt_snippet = "Look at a file's text, or at an image"
    prompt_guidelines = ("Open files with read rather than with cat or sed.",)

    async def execute(
        self,
        call_id: str,
        params: ReadToolInput,
        signal: AbortSignal | None,
        on_update: ToolUpdateCallback | None,
        ctx: ExtensionContext,
    ) -> ToolResult:
        """Read the file at `params.path` (relative to the session cwd)."""
        check_aborted(signal)
        operations = session_operations(ctx).read
        local = type(operations) is LocalReadOperations
        path = (resolve_read_path if local else resolve_to_cwd)(params.path, ctx.cwd)
        start, end = _selection(params.offset, params.limit)
        resize = functools.cache(functools.partial(image_auto_resize, ctx.cwd))  # images only
        if local or operations is None:
            load = asyncio.to_thread(_load, path, start, end, signal, resize)
            loaded = await abortable(load, signal)
        else:
            through = _load_through(operations, path, start, end, signal, resize)
            loaded = await abortable(through, signal)
        if isinstance(loaded, _Image):
            if loaded.data is not None and resize():
                data, mime, blind = loaded.data, loaded.mime_type, _model_lacks_vision(ctx)
                return await asyncio.to_thread(resized_image_result, data, mime, blind)
            return image_result(loaded.data, loaded.mime_type, ctx)
        if isinstance(loaded, _Binary):
            raise ValueError(
                f"Cannot read {path}: it is a binary file. Only text files and jpg, png, gif "
                "or webp images can be read."
            )
        return text_result(loaded.window, params.path, params.offset, params.limit)

    def file_operations(self, params: ReadToolInput) -> dict[str, list[str]]:
        """A read reads its path."""
        return {"read": [params.path]}

    def render_call(self, args: ReadToolInput, theme: Any) -> Text:
        """`read path:offset-end`."""
        text = new_text()
        text.append("read", style(theme, "toolTitle"))
        path = arg(args, "path")
        text.append(" ")
        text.append(path_label(path), style(theme, "accent"))
        offset, limit = arg(args, "offset"), arg(args, "limit")
        if offset is not None or limit is not None:
            first = offset or 1
            last = f"-{first + limit - 1}" if limit is not None else ""
            text.append(f":{first}{last}", style(theme, "warning"))
        return text

    def render_result(self, result: ToolResult, options: dict[str, bool], theme: Any) -> Text:
        """The first 10 lines (all when expanded) and a truncation warning."""
        text = new_text()
        lines = text_output(result).split("\n")
        while lines and lines[-1] == "":
            lines.pop()
        shown, remaining = head_lines("\n".join(lines), 10, option(options, "expanded"))
        text.append(
            "\n".join(line.replace("\t", "   ") for line in shown), style(theme, "toolOutput")
        )
        if remaining > 0:
            text.append(f"\n... ({remaining} more lines)", style(theme, "muted"))
        details = as_details(result, ReadToolDetails)
        truncation = details.truncation if details is not None else None
        if truncation is not None and truncation.truncated:
            if truncation.first_line_exceeds_limit:
                note = f"[First line exceeds {format_size(truncation.max_bytes)} limit]"
            elif truncation.truncated_by == "lines":
                shown_lines, total = truncation.output_lines, truncation.total_lines
                note = (
                    f"[Truncated: showing {shown_lines} of {total} lines "
                    f"({truncation.max_lines} line limit)]"
                )
            else:
                note = (
                    f"[Truncated: {truncation.output_lines} lines shown "
                    f"({format_size(truncation.max_bytes)} limit)]"
                )
            text.append(f"\n{note}", style(theme, "warning"))
        return text


def create_tool() -> ReadTool:
    """Return a new `read` tool."""
    return ReadTool()


@hookimpl
def register_tools(register: Callable[..., None]) -> None:
    """Register `read`."""
    register(create_tool())
