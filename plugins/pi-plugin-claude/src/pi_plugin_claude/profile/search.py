"""Glob, Grep and LS: Claude's schemas and output modes over pi's ripgrep and listing code."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from pi_plugin_tools.api import RipgrepProcess, find_paths

from pi_core.tools import ToolResult
from pi_plugin_claude.profile.base import ClaudeTool, absolute, relative_if_inside
from pi_plugin_claude.profile.inputs import GlobInput, GrepInput, LSInput
from pi_plugin_claude.profile.ls_tree import collect, draw_tree

if TYPE_CHECKING:
    from pi_core import ExtensionContext
    from pi_core.abort import AbortSignal
    from pi_core.tools import ToolUpdateCallback

GLOB_LIMIT = 100
GREP_DEFAULT_HEAD_LIMIT = 250
VCS_FOLDERS = (".git", ".svn", ".hg", ".bzr", ".jj", ".sl")
TRUNCATED = "(Results are truncated. Consider using a more specific path or pattern.)"


def _mtime(path: str) -> float:
    try:
        return os.stat(path).st_mtime
    except OSError:
        return 0.0


def newest_first(paths: list[str]) -> list[str]:
    """Sort by modification time, newest first, then by name (as Claude lists matches)."""
    return sorted(paths, key=lambda p: (-_mtime(p), p))


class GlobTool(ClaudeTool[GlobInput]):
    """`Glob`: pi's file finder (rg --files, .gitignore-aware), files only, newest first."""

    name = "Glob"
    label = "Glob"
    description = (
        "Lists the files whose paths match a glob such as '**/*.py' or 'src/**/*.toml', most "
        "recently modified first."
    )
    parameters = GlobInput
    prompt_snippet = "Find files by glob pattern"

    async def execute(
        self,
        call_id: str,
        params: GlobInput,
        signal: AbortSignal | None,
        on_update: ToolUpdateCallback | None,
        ctx: ExtensionContext,
    ) -> ToolResult:
        """List up to 100 matching files."""
        root = absolute(params.path, ctx.cwd) if params.path else ctx.cwd
        if not os.path.isdir(root):
            raise FileNotFoundError(f"Directory does not exist: {params.path}")
        found, _ = await find_paths(root, params.pattern, 100_000)
        files = newest_first([os.path.join(root, p) for p in found if not p.endswith("/")])
        if not files:
            return ToolResult.text("No files found")
        shown = files[:GLOB_LIMIT]
        lines = [relative_if_inside(path, ctx.cwd) for path in shown]
        if len(files) > GLOB_LIMIT:
            lines.append(TRUNCATED)
        return ToolResult.text("\n".join(lines))


def grep_arguments(params: GrepInput) -> list[str]:
    """ripgrep's arguments for a Claude Grep call (the same flags Claude passes)."""
    mode = params.output_mode or "files_with_matches"
    args = ["--hidden"]
    for folder in VCS_FOLDERS:
        args += ["--glob", f"!{folder}"]
    args += ["--max-columns", "500"]
    if params.multiline:
        args += ["-U", "--multiline-dotall"]
    if params.ignore_case:
        args.append("-i")
    if mode == "files_with_matches":
        args.append("-l")
    elif mode == "count":
        args += ["-c", "-H"]
    if mode == "content":
        if params.line_numbers is not False:
            args.append("-n")
        if params.only_matching:
            args.append("-o")
        around = params.context if params.context is not None else params.around
        if around is not None:
            args += ["-C", str(around)]
        else:
            if params.before is not None:
                args += ["-B", str(params.before)]
            if params.after is not None:
                args += ["-A", str(params.after)]
    args += ["-e", params.pattern] if params.pattern.startswith("-") else [params.pattern]
    if params.type:
        args += ["--type", params.type]
    if params.glob:
        for piece in params.glob.split():
            globs = [piece] if "{" in piece and "}" in piece else piece.split(",")
            for glob in filter(None, globs):
                args += ["--glob", glob]
    return args


def paginate(items: list[str], head_limit: int | None, offset: int) -> tuple[list[str], int | None]:
    """Skip `offset`, keep `head_limit` (250 by default, 0 for all); the limit if it cut."""
    if head_limit == 0:
        return items[offset:], None
    limit = head_limit if head_limit is not None else GREP_DEFAULT_HEAD_LIMIT
    return items[offset : offset + limit], limit if len(items) - offset > limit else None


def pagination_note(limit: int | None, offset: int) -> str:
    """`limit: 250, offset: 10`, the way Claude reports pagination."""
    parts = ([f"limit: {limit}"] if limit is not None else []) + (
        [f"offset: {offset}"] if offset else []
    )
    return ", ".join(parts)


def _relative_prefix(line: str, cwd: str, separator: str) -> str:
    cut = line.find(separator) if separator == ":" else line.rfind(":")
    if cut <= 0:
        return line
    return relative_if_inside(line[:cut], cwd) + line[cut:]


async def _run_rg(args: list[str], search: str) -> list[str]:
    rg = await RipgrepProcess.start([*args, search])
    lines: list[str] = []
    try:
        async for line in rg.lines():
            lines.append(os.fsdecode(line))
        code, stderr = await rg.wait()
    except BaseException:
        await rg.kill()
        raise
    if code not in (0, 1):
        raise RuntimeError(stderr.strip() or f"ripgrep exited with code {code}")
    return lines


class GrepTool(ClaudeTool[GrepInput]):
    """`Grep`: ripgrep (pi's rg) with Claude's output modes content, files_with_matches, count."""

    name = "Grep"
    label = "Grep"
    description = (
        "Searches file contents with ripgrep regular expressions; narrow the files with glob or "
        "type. output_mode picks the answer: 'files_with_matches' (the default) gives the paths "
        "of matching files, 'content' the matching lines, 'count' the number of matches per file."
    )
    parameters = GrepInput
    prompt_snippet = "Search file contents with ripgrep"

    async def execute(
        self,
        call_id: str,
        params: GrepInput,
        signal: AbortSignal | None,
        on_update: ToolUpdateCallback | None,
        ctx: ExtensionContext,
    ) -> ToolResult:
        """Run rg and format its output as Claude does for the chosen mode."""
        search = absolute(params.path, ctx.cwd) if params.path else ctx.cwd
        if not os.path.exists(search):
            raise FileNotFoundError(f"Path does not exist: {params.path}")
        lines = await _run_rg(grep_arguments(params), search)
        mode = params.output_mode or "files_with_matches"
        offset = params.offset or 0
        if mode == "content":
            items, limit = paginate(lines, params.head_limit, offset)
            text = "\n".join(_relative_prefix(line, ctx.cwd, ":") for line in items)
            text = text or "No matches found"
            note = pagination_note(limit, offset)
            return ToolResult.text(
                f"{text}\n\n[Showing results with pagination = {note}]" if note else text
            )
        if mode == "count":
            items, limit = paginate(lines, params.head_limit, offset)
            shown = [_relative_prefix(line, ctx.cwd, "last") for line in items]
            matches = files = 0
            for line in shown:
                count = line.rpartition(":")[2]
                if count.isdigit():
                    matches, files = matches + int(count), files + 1
            note = pagination_note(limit, offset)
            return ToolResult.text(
                ("\n".join(shown) or "No matches found")
                + f"\n\nFound {matches} total {'occurrence' if matches == 1 else 'occurrences'} "
                f"across {files} {'file' if files == 1 else 'files'}."
                + (f" with pagination = {note}" if note else "")
            )
        items, limit = paginate(newest_first(lines), params.head_limit, offset)
        if not items:
            return ToolResult.text("No files found")
        note = pagination_note(limit, offset)
        head = f"Found {len(items)} {'file' if len(items) == 1 else 'files'}" + (
            f" {note}" if note else ""
        )
        return ToolResult.text(
            head + "\n" + "\n".join(relative_if_inside(p, ctx.cwd) for p in items)
        )


class LSTool(ClaudeTool[LSInput]):
    """`LS`: the folder's tree (hidden entries left out), drawn as Claude's indented tree."""

    name = "LS"
    label = "LS"
    description = (
        "Shows the files and folders inside path, which has to be absolute. ignore may list "
        "glob patterns for entries to leave out."
    )
    parameters = LSInput
    prompt_snippet = "List a directory"

    async def execute(
        self,
        call_id: str,
        params: LSInput,
        signal: AbortSignal | None,
        on_update: ToolUpdateCallback | None,
        ctx: ExtensionContext,
    ) -> ToolResult:
        """List the folder's tree (folders end in `/`), minus the ignored entries."""
        folder = absolute(params.path, ctx.cwd)
        paths, more = collect(folder, params.ignore or [])
        lines = draw_tree(folder, paths)
        if more:
            lines.append(TRUNCATED)
        return ToolResult.text("\n".join(lines))
