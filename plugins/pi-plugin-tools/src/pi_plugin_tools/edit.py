"""The `edit` tool: exact (then fuzzy) text replacements, all matched against the original."""

from __future__ import annotations

import asyncio
import errno
import json
import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pi_core import hookimpl
from pi_core.tools import EditToolDetails, EditToolInput, Tool, ToolResult, ToolUpdateCallback
from pi_plugin_tools.abort import abortable, check_aborted
from pi_plugin_tools.edit_diff import (
    apply_edits,
    detect_line_ending,
    normalize_to_lf,
    restore_line_endings,
    strip_bom,
)
from pi_plugin_tools.files import file_mutation_lock, replace_file
from pi_plugin_tools.line_diff import generate_diff_string
from pi_plugin_tools.operations import LocalEditOperations, session_operations
from pi_plugin_tools.paths import resolve_to_cwd
from pi_plugin_tools.render import (
    arg,
    as_details,
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
    from pi_core.tools import EditOperations

DESCRIPTION = (
    "Changes one file by replacing exact pieces of its text. Each edits[].oldText has to occur "
    "exactly once in the file as it was before the call, and no two of them may share any text. "
    "When two changes fall in the same block or on neighbouring lines, send them as a single "
    "edit. Leave out long unchanged stretches between far-apart changes: use separate edits."
)


def prepare_arguments(arguments: dict[str, Any]) -> dict[str, Any]:
    """Accept what models really send: `edits` as a JSON string, or a top-level oldText/newText."""
    args = dict(arguments)
    if isinstance(args.get("edits"), str):
        try:
            parsed = json.loads(args["edits"])
        except ValueError:
            parsed = None
        if isinstance(parsed, list):
            args["edits"] = parsed
    old, new = args.get("oldText"), args.get("newText")
    if not isinstance(old, str) or not isinstance(new, str):
        return args
    edits = list(args["edits"]) if isinstance(args.get("edits"), list) else []
    edits.append({"oldText": old, "newText": new})
    del args["oldText"], args["newText"]
    args["edits"] = edits
    return args


_ERRNO_OF: dict[type[OSError], int] = {
    FileNotFoundError: errno.ENOENT,
    PermissionError: errno.EACCES,
    IsADirectoryError: errno.EISDIR,
}
"""The code to name when a back-end raised without an errno."""


def _access_error(raw_path: str, error: OSError) -> Exception:
    number = error.errno or _ERRNO_OF.get(type(error), 0)
    code = errno.errorcode.get(number, str(number))
    return OSError(f"Could not edit file: {raw_path}. Error code: {code}.")


def _read_original(path: str, raw_path: str) -> bytes:
    if os.path.isdir(path):
        raise _access_error(raw_path, IsADirectoryError(errno.EISDIR, "is a directory"))
    if not os.access(path, os.R_OK | os.W_OK):
        missing: OSError = PermissionError(errno.EACCES, "permission denied")
        try:
            os.stat(path)
        except OSError as error:
            missing = error
        raise _access_error(raw_path, missing)
    with open(path, "rb") as handle:
        return handle.read()


async def _read_through(operations: EditOperations, path: str, raw_path: str) -> bytes:
    """Read the original through a non-local back-end, with the local path's error words."""
    try:
        await operations.access(path)
        return await operations.read_file(path)
    except OSError as error:
        raise _access_error(raw_path, error) from None


def _decode(raw: bytes, edits: list[tuple[str, str]]) -> str:
    """Decode the file so that bytes which are not UTF-8 survive the edit untouched.

    They are kept as surrogate escapes. Only when an oldText itself holds U+FFFD (the model
    copied replacement characters that `read` showed it) is the file decoded as pi does,
    with invalid bytes turned into U+FFFD, so that such an edit can match.
    """
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        pass
    if any("\ufffd" in old for old, _ in edits):
        return raw.decode("utf-8", "replace")
    return raw.decode("utf-8", "surrogateescape")


def _visible(text: str) -> str:
    """Show bytes that were not UTF-8 as U+FFFD in messages and diffs."""
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


class EditTool(Tool[EditToolInput]):
    """Replace exact text in one file; the file is untouched if any edit fails."""

    name = "edit"
    label = "edit"
    description = DESCRIPTION
    parameters = EditToolInput
    prompt_snippet = (
        "Replace exact pieces of a file's text; one call can carry several separate changes"
    )
    prompt_guidelines = (
        "Use edit for targeted changes; every edits[].oldText has to match the file exactly",
        "For several changes to one file, send one edit call whose edits[] lists them all rather "
        "than one call per change",
        "All edits[].oldText are looked up in the file as it was before the call, not after the "
        "earlier replacements. They must not overlap or contain one another; combine changes "
        "that sit close together.",
        "Make each edits[].oldText just long enough to be unique in the file; surrounding "
        "unchanged lines only add noise.",
    )

    def validate_arguments(self, arguments: dict[str, Any]) -> EditToolInput:
        """Repair the argument shapes pi repairs, then validate against the schema."""
        return super().validate_arguments(prepare_arguments(arguments))

    async def execute(
        self,
        call_id: str,
        params: EditToolInput,
        signal: AbortSignal | None,
        on_update: ToolUpdateCallback | None,
        ctx: ExtensionContext,
    ) -> ToolResult:
        """Apply every edit to the original text and write the file once."""
        if not params.edits:
            raise ValueError("Invalid edit arguments: edits needs at least one replacement.")
        check_aborted(signal)
        path = resolve_to_cwd(params.path, ctx.cwd)
        edits = [(e.old_text, e.new_text) for e in params.edits]
        operations = session_operations(ctx).edit
        local = operations is None or type(operations) is LocalEditOperations
        async with file_mutation_lock(path):
            check_aborted(signal)
            if local or operations is None:
                raw = await abortable(asyncio.to_thread(_read_original, path, params.path), signal)
            else:
                raw = await abortable(_read_through(operations, path, params.path), signal)
            bom, content = strip_bom(_decode(raw, edits))
            ending = detect_line_ending(content)
            base, new = apply_edits(normalize_to_lf(content), edits, params.path)
            check_aborted(signal)
            data = (bom + restore_line_endings(new, ending)).encode("utf-8", "surrogateescape")
            if operations is not None and not local:
                await operations.write_file(path, data)
            elif not await asyncio.to_thread(
                replace_file, path, data, lambda: not (signal is not None and signal.aborted)
            ):
                check_aborted(signal)  # aborted before the rename: the file is untouched
        diff, first_changed = generate_diff_string(_visible(base), _visible(new))
        return ToolResult.text(
            f"Successfully replaced {len(edits)} block(s) in {params.path}.",
            details=EditToolDetails(diff=diff, first_changed_line=first_changed),
        )

    def file_operations(self, params: EditToolInput) -> dict[str, list[str]]:
        """An edit edits its path."""
        return {"edited": [params.path]}

    def render_call(self, args: EditToolInput, theme: Any) -> Text:
        """`edit path`."""
        text = new_text()
        text.append("edit", style(theme, "toolTitle"))
        path = arg(args, "path")
        text.append(" ")
        text.append(path_label(path), style(theme, "accent"))
        return text

    def render_result(self, result: ToolResult, options: dict[str, bool], theme: Any) -> Text:
        """The diff, coloured; or the error."""
        text = new_text()
        details = as_details(result, EditToolDetails)
        if option(options, "is_error") or details is None:
            text.append(text_output(result), style(theme, "error"))
            return text
        for index, line in enumerate(details.diff.split("\n")):
            if index:
                text.append("\n")
            if line.startswith("+"):
                text.append(line, style(theme, "toolDiffAdded"))
            elif line.startswith("-"):
                text.append(line, style(theme, "toolDiffRemoved"))
            else:
                text.append(line, style(theme, "toolDiffContext"))
        return text


def create_tool() -> EditTool:
    """Return a new `edit` tool."""
    return EditTool()


@hookimpl
def register_tools(register: Callable[..., None]) -> None:
    """Register `edit`."""
    register(create_tool())
