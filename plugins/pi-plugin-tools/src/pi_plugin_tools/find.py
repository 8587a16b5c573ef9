"""The `find` tool: files (and folders) matching a glob, .gitignore-aware, sorted, capped."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pi_core import hookimpl
from pi_core.tools import FindToolDetails, FindToolInput, Tool, ToolResult, ToolUpdateCallback
from pi_plugin_tools.abort import abortable, check_aborted
from pi_plugin_tools.globmatch import compile_glob
from pi_plugin_tools.listing import listing_result, listing_result_view
from pi_plugin_tools.operations import is_local_directory, session_operations
from pi_plugin_tools.paths import resolve_to_cwd, shorten_path, to_posix
from pi_plugin_tools.render import (
    arg,
    new_text,
    style,
)
from pi_plugin_tools.ripgrep import RipgrepProcess
from pi_plugin_tools.truncate import DEFAULT_MAX_BYTES, UNLIMITED_LINES, truncate_head

if TYPE_CHECKING:
    from rich.text import Text

    from pi_core import ExtensionContext
    from pi_core.abort import AbortSignal
    from pi_core.tools import FindOperations

DEFAULT_LIMIT = 1000

DESCRIPTION = (
    "Lists files whose paths match a glob pattern, relative to the folder searched. Files that "
    f".gitignore excludes are skipped. At most {DEFAULT_LIMIT} paths or "
    f"{DEFAULT_MAX_BYTES // 1024}KB come back, whichever limit comes first."
)

RG_FILES_ARGS = ["--files", "--hidden", "--no-require-git", "--color=never", "--glob", "!.git"]
"""List every file rg would search: hidden ones too, ignore files honoured, `.git` skipped."""


async def _glob_through(
    operations: FindOperations, search_path: str, pattern: str, limit: int
) -> tuple[list[str], bool]:
    found = await operations.glob(pattern, search_path, limit=limit)
    return found[:limit], len(found) > limit


class LocalFindOperations:
    """`find` on this machine: ripgrep's file walk (ignore files honoured)."""

    async def is_directory(self, path: str) -> bool:
        """Return whether `path` is a folder."""
        return await asyncio.to_thread(is_local_directory, path)

    async def glob(self, pattern: str, cwd: str, *, limit: int) -> list[str]:
        """Return the matching paths under `cwd` (one more than `limit` when cut)."""
        found, _ = await find_paths(cwd, pattern, limit + 1)
        return found


class PathMatcher:
    """Matches a glob as fd does: names for a plain pattern, whole paths for one with `/`.

    A path pattern matches anywhere below the search folder unless it starts with `/` or
    `**/` (pi prefixes `**/` and hands fd the absolute path).
    """

    def __init__(self, pattern: str, search_path: str) -> None:
        self.full_path = "/" in pattern
        if self.full_path and not pattern.startswith(("/", "**/")) and pattern != "**":
            pattern = f"**/{pattern}"
        self._regex = compile_glob(pattern)
        self._root = to_posix(search_path).rstrip("/")

    def __call__(self, relative: str) -> bool:
        """Return whether the path (relative to the search folder, `/`-separated) matches."""
        subject = f"{self._root}/{relative}" if self.full_path else relative.rpartition("/")[2]
        return self._regex.match(subject)


def sort_key(path: str) -> list[str]:
    """Order paths folder by folder, names in byte order: the order `rg --sort path` walks."""
    return path.rstrip("/").split("/")


async def find_paths(search_path: str, pattern: str, limit: int) -> tuple[list[str], bool]:
    """Return up to `limit` matching paths, sorted, and whether more matched.

    Files come from `rg --files` (hidden files included, ignore files honoured, `.git`
    skipped), walked in sorted order so the search can stop once `limit` is passed. Folders
    are those holding such files; folders are marked with a trailing `/`. The pattern is not
    given to rg: an rg glob matching an ignored folder's name would un-ignore that folder.
    """
    matches = PathMatcher(pattern, search_path)
    prefix = search_path.rstrip(os.sep) + os.sep
    seen_folders: set[str] = set()
    found: list[str] = []
    rg = await RipgrepProcess.start([*RG_FILES_ARGS, "--sort", "path", "--", search_path])
    try:
        async for batch in rg.text_batches():
            for line in batch:
                if line.startswith(prefix):
                    relative = to_posix(line[len(prefix) :])
                elif line:
                    relative = to_posix(os.path.relpath(line, search_path))
                else:
                    continue
                parent = relative.rpartition("/")[0]
                new_folders: list[str] = []
                while parent and parent not in seen_folders:
                    seen_folders.add(parent)
                    new_folders.append(parent)
                    parent = parent.rpartition("/")[0]
                found.extend(f"{folder}/" for folder in reversed(new_folders) if matches(folder))
                if matches(relative):
                    found.append(relative)
            if len(found) > limit:
                rg.stop()
                break
        code, stderr = await rg.wait()
    except BaseException:
        await rg.kill()
        raise
    if not rg.stopped and code not in (0, 1) and not found:
        raise RuntimeError(stderr.strip() or f"ripgrep exited with code {code}")
    found.sort(key=sort_key)
    return found[:limit], len(found) > limit


class FindTool(Tool[FindToolInput]):
    """Find files by glob pattern."""

    name = "find"
    label = "find"
    description = DESCRIPTION
    parameters = FindToolInput
    prompt_snippet = "List files matching a glob, skipping what .gitignore excludes"

    async def execute(
        self,
        call_id: str,
        params: FindToolInput,
        signal: AbortSignal | None,
        on_update: ToolUpdateCallback | None,
        ctx: ExtensionContext,
    ) -> ToolResult:
        """List paths under `params.path` (default: the session cwd) matching `params.pattern`."""
        check_aborted(signal)
        search_path = resolve_to_cwd(params.path or ".", ctx.cwd)
        operations = session_operations(ctx).find or LocalFindOperations()
        try:
            is_folder = await operations.is_directory(search_path)
        except OSError:
            raise FileNotFoundError(f"Path not found: {search_path}") from None
        if not is_folder:
            raise NotADirectoryError(f"Not a directory: {search_path}")
        limit = max(1, params.limit if params.limit is not None else DEFAULT_LIMIT)
        if type(operations) is LocalFindOperations:
            search = find_paths(search_path, params.pattern, limit)
        else:
            search = _glob_through(operations, search_path, params.pattern, limit)
        found, limit_reached = await abortable(search, signal)
        if not found:
            return ToolResult.text("No files found matching pattern")
        truncation = truncate_head("\n".join(found), max_lines=UNLIMITED_LINES)
        output = truncation.content
        details = FindToolDetails()
        limit_notice = None
        if limit_reached:
            limit_notice = (
                f"{limit} results limit reached. Use limit={limit * 2} for more, or refine pattern"
            )
            details.result_limit_reached = limit
        return listing_result(output, details, limit_notice, truncation)

    def render_call(self, args: FindToolInput, theme: Any) -> Text:
        """`find pattern in path (limit N)`."""
        text = new_text()
        text.append("find", style(theme, "toolTitle"))
        text.append(f" {arg(args, 'pattern') or ''}", style(theme, "accent"))
        text.append(f" in {shorten_path(arg(args, 'path') or '.')}", style(theme, "toolOutput"))
        if arg(args, "limit") is not None:
            text.append(f" (limit {arg(args, 'limit')})", style(theme, "toolOutput"))
        return text

    def render_result(self, result: ToolResult, options: dict[str, bool], theme: Any) -> Text:
        """The first 20 paths (all when expanded) and what cut the list."""
        return listing_result_view(
            result, options, theme, 20, FindToolDetails, "result_limit_reached", "results limit"
        )


def create_tool() -> FindTool:
    """Return a new `find` tool."""
    return FindTool()


@hookimpl
def register_tools(register: Callable[..., None]) -> None:
    """Register `find`."""
    register(create_tool())
