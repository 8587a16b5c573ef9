"""The `ls` tool: a folder's entries, dotfiles included, sorted, folders marked with `/`."""

from __future__ import annotations

import asyncio
import os
import posixpath
import stat
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pi_core import hookimpl
from pi_core.tools import LsToolDetails, LsToolInput, Tool, ToolResult, ToolUpdateCallback
from pi_plugin_tools.abort import abortable, check_aborted
from pi_plugin_tools.collate import collation_key
from pi_plugin_tools.listing import listing_result, listing_result_view
from pi_plugin_tools.operations import LocalLsOperations, session_operations
from pi_plugin_tools.paths import resolve_to_cwd, shorten_path
from pi_plugin_tools.render import (
    arg,
    new_text,
    style,
)
from pi_plugin_tools.truncate import DEFAULT_MAX_BYTES, UNLIMITED_LINES, truncate_head

if TYPE_CHECKING:
    from rich.text import Text

    from pi_core import ExtensionContext
    from pi_core.abort import AbortSignal
    from pi_core.tools import LsOperations

DEFAULT_LIMIT = 500

DESCRIPTION = (
    "Shows what a folder holds, dotfiles included, sorted by name; folder names end in '/'. At "
    f"most {DEFAULT_LIMIT} entries or {DEFAULT_MAX_BYTES // 1024}KB come back, whichever limit "
    "comes first."
)


def list_entries(folder: str, limit: int) -> tuple[list[str], bool]:
    """Return up to `limit` sorted entries (folders end in `/`) and whether more were left."""
    try:
        mode = os.stat(folder).st_mode
    except OSError:
        raise FileNotFoundError(f"Path not found: {folder}") from None
    if not stat.S_ISDIR(mode):
        raise NotADirectoryError(f"Not a directory: {folder}")
    try:
        names = os.listdir(folder)
    except OSError as error:
        raise OSError(f"Cannot read directory: {error.strerror or error}") from None
    names.sort(key=collation_key)
    entries: list[str] = []
    for name in names:
        if len(entries) >= limit:
            return entries, True
        try:
            is_dir = stat.S_ISDIR(os.stat(os.path.join(folder, name)).st_mode)
        except OSError:
            continue  # a broken link or an entry that vanished: pi skips it too
        entries.append(name + "/" if is_dir else name)
    return entries, False


async def list_entries_through(
    operations: LsOperations, folder: str, limit: int
) -> tuple[list[str], bool]:
    """`list_entries` on a non-local back-end."""
    try:
        is_folder = await operations.is_directory(folder)
    except OSError:
        raise FileNotFoundError(f"Path not found: {folder}") from None
    if not is_folder:
        raise NotADirectoryError(f"Not a directory: {folder}")
    try:
        names = await operations.readdir(folder)
    except OSError as error:
        raise OSError(f"Cannot read directory: {error.strerror or error}") from None
    names.sort(key=collation_key)
    entries: list[str] = []
    for name in names:
        if len(entries) >= limit:
            return entries, True
        try:
            is_dir = await operations.is_directory(posixpath.join(folder, name))
        except OSError:
            continue
        entries.append(name + "/" if is_dir else name)
    return entries, False


class LsTool(Tool[LsToolInput]):
    """List a directory."""

    name = "ls"
    label = "ls"
    description = DESCRIPTION
    parameters = LsToolInput
    prompt_snippet = "Show the entries of a folder"

    async def execute(
        self,
        call_id: str,
        params: LsToolInput,
        signal: AbortSignal | None,
        on_update: ToolUpdateCallback | None,
        ctx: ExtensionContext,
    ) -> ToolResult:
        """List `params.path` (default: the session cwd)."""
        check_aborted(signal)
        folder = resolve_to_cwd(params.path or ".", ctx.cwd)
        limit = params.limit if params.limit is not None else DEFAULT_LIMIT
        operations = session_operations(ctx).ls
        if operations is None or type(operations) is LocalLsOperations:
            listing = asyncio.to_thread(list_entries, folder, limit)
        else:
            listing = list_entries_through(operations, folder, limit)
        entries, limit_reached = await abortable(listing, signal)
        if not entries:
            return ToolResult.text("(empty directory)")
        truncation = truncate_head("\n".join(entries), max_lines=UNLIMITED_LINES)
        output = truncation.content
        details = LsToolDetails()
        limit_notice = None
        if limit_reached:
            limit_notice = f"{limit} entries limit reached. Use limit={limit * 2} for more"
            details.entry_limit_reached = limit
        return listing_result(output, details, limit_notice, truncation)

    def render_call(self, args: LsToolInput, theme: Any) -> Text:
        """`ls path (limit N)`."""
        text = new_text()
        text.append("ls", style(theme, "toolTitle"))
        text.append(f" {shorten_path(arg(args, 'path') or '.')}", style(theme, "accent"))
        if arg(args, "limit") is not None:
            text.append(f" (limit {arg(args, 'limit')})", style(theme, "toolOutput"))
        return text

    def render_result(self, result: ToolResult, options: dict[str, bool], theme: Any) -> Text:
        """The first 20 entries (all when expanded) and what cut the list."""
        return listing_result_view(
            result, options, theme, 20, LsToolDetails, "entry_limit_reached", "entries limit"
        )


def create_tool() -> LsTool:
    """Return a new `ls` tool."""
    return LsTool()


@hookimpl
def register_tools(register: Callable[..., None]) -> None:
    """Register `ls`."""
    register(create_tool())
