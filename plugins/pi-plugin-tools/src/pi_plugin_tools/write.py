"""The `write` tool: create or overwrite a file, atomically, creating its folders."""

from __future__ import annotations

import asyncio
import os
import posixpath
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pi_core import hookimpl
from pi_core.tools import Tool, ToolResult, ToolUpdateCallback, WriteToolInput
from pi_plugin_tools.abort import check_aborted
from pi_plugin_tools.files import file_mutation_lock, replace_file, write_target
from pi_plugin_tools.operations import LocalWriteOperations, session_operations
from pi_plugin_tools.paths import resolve_to_cwd
from pi_plugin_tools.render import (
    arg,
    head_lines,
    new_text,
    option,
    path_label,
    style,
    text_output,
)

if TYPE_CHECKING:
    from rich.text import Text

    from pi_core import ExtensionContext
    from pi_core.abort import AbortSignal

DESCRIPTION = (
    "Puts the given content in a file, replacing the file if it exists and creating it (and any "
    "missing parent folders) if not."
)


def _write(path: str, data: bytes, signal: AbortSignal | None) -> bool:
    if os.path.isdir(path):
        raise IsADirectoryError(f"Cannot write {path}: it is a directory")
    os.makedirs(os.path.dirname(write_target(path)) or ".", exist_ok=True)
    return replace_file(path, data, lambda: not (signal is not None and signal.aborted))


class WriteTool(Tool[WriteToolInput]):
    """Create or overwrite a file with the given content."""

    name = "write"
    label = "write"
    description = DESCRIPTION
    parameters = WriteToolInput
    prompt_snippet = "Create a file or replace all of it"
    prompt_guidelines = ("Keep write for new files and whole-file rewrites.",)

    async def execute(
        self,
        call_id: str,
        params: WriteToolInput,
        signal: AbortSignal | None,
        on_update: ToolUpdateCallback | None,
        ctx: ExtensionContext,
    ) -> ToolResult:
        """Write `params.content` to `params.path` (UTF-8, exactly as given)."""
        check_aborted(signal)
        path = resolve_to_cwd(params.path, ctx.cwd)
        data = params.content.encode("utf-8", "surrogatepass")
        operations = session_operations(ctx).write
        async with file_mutation_lock(path):
            check_aborted(signal)
            if operations is None or type(operations) is LocalWriteOperations:
                if not await asyncio.to_thread(_write, path, data, signal):
                    check_aborted(signal)  # aborted before the rename: the file is untouched
            else:
                await operations.mkdir(posixpath.dirname(path) or "/")
                check_aborted(signal)
                await operations.write_file(path, data)
        return ToolResult.text(f"Successfully wrote {len(data)} bytes to {params.path}")

    def file_operations(self, params: WriteToolInput) -> dict[str, list[str]]:
        """A write writes its path."""
        return {"written": [params.path]}

    def render_call(self, args: WriteToolInput, theme: Any) -> Text:
        """`write path` and the first lines of the content."""
        text = new_text()
        text.append("write", style(theme, "toolTitle"))
        path = arg(args, "path")
        text.append(" ")
        text.append(path_label(path), style(theme, "accent"))
        content = arg(args, "content")
        if isinstance(content, str) and content:
            lines = content.replace("\r", "").rstrip("\n")
            shown, remaining = head_lines(lines, 10, False)
            text.append("\n\n" + "\n".join(line.replace("\t", "   ") for line in shown))
            if remaining > 0:
                total = len(shown) + remaining
                text.append(f"\n... ({remaining} more lines, {total} total)", style(theme, "muted"))
        return text

    def render_result(
        self, result: ToolResult, options: dict[str, bool], theme: Any
    ) -> Text | None:
        """Nothing on success (the call shows the content); the error otherwise."""
        if not option(options, "is_error"):
            return None
        text = new_text()
        text.append(text_output(result), style(theme, "error"))
        return text


def create_tool() -> WriteTool:
    """Return a new `write` tool."""
    return WriteTool()


@hookimpl
def register_tools(register: Callable[..., None]) -> None:
    """Register `write`."""
    register(create_tool())
