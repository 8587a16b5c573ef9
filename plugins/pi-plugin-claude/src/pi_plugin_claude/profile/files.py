"""Read, Write, Edit and MultiEdit: Claude's schemas and result texts over pi's file tools."""

from __future__ import annotations

import asyncio
import os
import re
from typing import TYPE_CHECKING, Any

from pi_plugin_tools.api import file_mutation_lock, replace_file
from pydantic import BaseModel

from pi_core.messages import TextContent
from pi_core.tools import ToolResult
from pi_plugin_claude.profile.base import ClaudeTool, absolute
from pi_plugin_claude.profile.inputs import EditInput, MultiEditInput, ReadInput, WriteInput

if TYPE_CHECKING:
    from pi_core import ExtensionContext
    from pi_core.abort import AbortSignal
    from pi_core.tools import ToolUpdateCallback

_PI_NOTE = re.compile(r"\n\n(\[(?:Showing lines|\d+ more lines? in file)[^\n]*\])$")
EMPTY_FILE = (
    "<system-reminder>Warning: the file exists but the contents are empty.</system-reminder>"
)


def number_lines(text: str, first_line: int) -> str:
    """Claude's `cat -n` view: `N<tab>line` for every line (a final newline ends the last)."""
    if text.endswith("\n"):
        text = text[:-1]
    return "\n".join(f"{first_line + index}\t{line}" for index, line in enumerate(text.split("\n")))


class ReadTool(ClaudeTool[ReadInput]):
    """`Read`: pi's read (limits, images, binary refusal) with Claude's numbered lines."""

    name = "Read"
    label = "Read"
    description = (
        "Returns a file from this machine; file_path has to be absolute. Without offset and "
        "limit you get the first 2000 lines, with them any other stretch. Every line comes back "
        "numbered from 1 as `N<tab>line`. An image file is passed to you as an image."
    )
    parameters = ReadInput
    prompt_snippet = "Read file contents (absolute paths, numbered lines)"

    async def execute(
        self,
        call_id: str,
        params: ReadInput,
        signal: AbortSignal | None,
        on_update: ToolUpdateCallback | None,
        ctx: ExtensionContext,
    ) -> ToolResult:
        """Read through pi's `read`, then number the lines as Claude does."""
        path = absolute(params.file_path, ctx.cwd)
        if os.path.isfile(path) and os.path.getsize(path) == 0:
            return ToolResult.text(EMPTY_FILE)
        arguments = {"path": path, "offset": params.offset, "limit": params.limit}
        try:
            result = await self.run_pi("read", arguments, call_id, signal, ctx)
        except FileNotFoundError:
            raise FileNotFoundError(
                f"File does not exist. Current working directory: {ctx.cwd}"
            ) from None
        except ValueError as error:
            match = re.match(r"Offset \d+ is beyond end of file \((\d+) lines total\)", str(error))
            if match is None:
                raise
            return ToolResult.text(
                "<system-reminder>Warning: the file exists but is shorter than the provided "
                f"offset ({params.offset}). The file has {match.group(1)} lines."
                "</system-reminder>"
            )
        if any(not isinstance(block, TextContent) for block in result.content):
            return result  # an image: pi's answer as it is
        text = result.text_content()
        note = _PI_NOTE.search(text)
        body = text[: note.start()] if note else text
        numbered = number_lines(body, params.offset or 1)
        return ToolResult.text(numbered + (f"\n\n{note.group(1)}" if note else ""), result.details)


class WriteTool(ClaudeTool[WriteInput]):
    """`Write`: pi's write, answered in Claude's words."""

    name = "Write"
    label = "Write"
    description = (
        "Saves content as a file on this machine, replacing any file already at that path; "
        "file_path has to be absolute."
    )
    parameters = WriteInput
    prompt_snippet = "Create or overwrite files"

    async def execute(
        self,
        call_id: str,
        params: WriteInput,
        signal: AbortSignal | None,
        on_update: ToolUpdateCallback | None,
        ctx: ExtensionContext,
    ) -> ToolResult:
        """Write through pi's `write`."""
        path = absolute(params.file_path, ctx.cwd)
        existed = os.path.exists(path)
        await self.run_pi("write", {"path": path, "content": params.content}, call_id, signal, ctx)
        if existed:
            return ToolResult.text(f"The file {path} has been updated successfully.")
        return ToolResult.text(f"File created successfully at: {path}")


def replace_text(content: str, old: str, new: str, replace_all: bool) -> str:
    """Replace `old` (everywhere, or exactly once) with Claude's error messages."""
    if old == new:
        raise ValueError("No changes to make: old_string and new_string are exactly the same.")
    count = content.count(old)
    if count == 0:
        raise ValueError(f"String to replace not found in file.\nString: {old}")
    if count > 1 and not replace_all:
        raise ValueError(
            f"Found {count} matches of the string to replace, but replace_all is false. To "
            "replace all occurrences, set replace_all to true. To replace only one occurrence, "
            f"please provide more context to uniquely identify the instance.\nString: {old}"
        )
    return content.replace(old, new) if replace_all else content.replace(old, new, 1)


def _read_text(path: str, shown: str) -> str:
    try:
        with open(path, encoding="utf-8", newline="") as handle:
            return handle.read()
    except FileNotFoundError:
        raise FileNotFoundError(f"File does not exist: {shown}") from None


async def _rewrite(path: str, shown: str, edit: list[tuple[str, str, bool]]) -> str:
    """Apply the edits in order and replace the file once, atomically (pi's replace_file).

    Returns the file's text before the edits."""
    async with file_mutation_lock(path):
        original = await asyncio.to_thread(_read_text, path, shown)
        content = original
        for old, new, replace_all in edit:
            content = replace_text(content, old, new, replace_all)
        await asyncio.to_thread(replace_file, path, content.encode("utf-8"))
    return original


def _with_original(details: Any, original: str) -> dict[str, Any]:
    """pi's edit details plus the file's text before the edit (Claude's `originalFile`)."""
    base = details.model_dump() if isinstance(details, BaseModel) else details
    return {**(base if isinstance(base, dict) else {}), "originalFile": original}


class EditTool(ClaudeTool[EditInput]):
    """`Edit`: one exact replacement (pi's edit), or every occurrence with `replace_all`."""

    name = "Edit"
    label = "Edit"
    description = (
        "Swaps old_string for new_string in one file, matching the text exactly. If old_string "
        "occurs more than once the call fails, unless replace_all is true, which changes every "
        "occurrence (handy for renaming throughout a file)."
    )
    parameters = EditInput
    prompt_snippet = "Make exact string replacements in a file"

    async def execute(
        self,
        call_id: str,
        params: EditInput,
        signal: AbortSignal | None,
        on_update: ToolUpdateCallback | None,
        ctx: ExtensionContext,
    ) -> ToolResult:
        """Check the match count in Claude's words, then edit through pi (or replace all)."""
        path = absolute(params.file_path, ctx.cwd)
        if params.replace_all:
            edit = [(params.old_string, params.new_string, True)]
            original = await _rewrite(path, params.file_path, edit)
            return ToolResult.text(
                f"The file {path} has been updated. All occurrences were successfully replaced.",
                _with_original(None, original),
            )
        content = await asyncio.to_thread(_read_text, path, params.file_path)
        replace_text(content, params.old_string, params.new_string, False)  # Claude's errors
        edits = [{"oldText": params.old_string, "newText": params.new_string}]
        result = await self.run_pi("edit", {"path": path, "edits": edits}, call_id, signal, ctx)
        return ToolResult.text(
            f"The file {path} has been updated successfully.",
            _with_original(result.details, content),
        )


def _excerpt(text: str, width: int = 50) -> str:
    return text if len(text) <= width else text[:width] + "..."


class MultiEditTool(ClaudeTool[MultiEditInput]):
    """`MultiEdit`: several replacements applied in order; all or nothing."""

    name = "MultiEdit"
    label = "MultiEdit"
    description = (
        "Applies a list of edits to one file at once. Each edit works on the text the one "
        "before it produced; should any of them fail, the file is left as it was."
    )
    parameters = MultiEditInput
    prompt_snippet = "Make several exact replacements in one file"

    async def execute(
        self,
        call_id: str,
        params: MultiEditInput,
        signal: AbortSignal | None,
        on_update: ToolUpdateCallback | None,
        ctx: ExtensionContext,
    ) -> ToolResult:
        """Apply every edit in order to the file's text, then write it once."""
        path = absolute(params.file_path, ctx.cwd)
        edits = [(e.old_string, e.new_string, bool(e.replace_all)) for e in params.edits]
        await _rewrite(path, params.file_path, edits)
        lines = [
            f'{index}. Replaced "{_excerpt(old)}" with "{_excerpt(new)}"'
            for index, (old, new, _) in enumerate(edits, 1)
        ]
        count = len(edits)
        return ToolResult.text(
            f"Applied {count} edit{'s' if count != 1 else ''} to {params.file_path}:\n"
            + "\n".join(lines)
        )
