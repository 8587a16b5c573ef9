"""The `grep` tool: ripgrep over the session cwd, .gitignore-aware, with pi's limits and notes."""

from __future__ import annotations

import asyncio
import base64
import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pi_core import hookimpl
from pi_core.tools import (
    GrepHit,
    GrepQuery,
    GrepToolDetails,
    GrepToolInput,
    Tool,
    ToolResult,
    ToolUpdateCallback,
)
from pi_plugin_tools.abort import abortable, check_aborted
from pi_plugin_tools.listing import listing_result, listing_result_view
from pi_plugin_tools.operations import is_local_directory, read_local_bytes, session_operations
from pi_plugin_tools.paths import resolve_to_cwd, shorten_path, to_posix
from pi_plugin_tools.render import (
    arg,
    as_details,
    new_text,
    style,
)
from pi_plugin_tools.ripgrep import RipgrepProcess
from pi_plugin_tools.truncate import (
    DEFAULT_MAX_BYTES,
    GREP_MAX_LINE_LENGTH,
    UNLIMITED_LINES,
    truncate_head,
    truncate_line,
)

if TYPE_CHECKING:
    from rich.text import Text

    from pi_core import ExtensionContext
    from pi_core.abort import AbortSignal
    from pi_core.tools import GrepOperations

DEFAULT_LIMIT = 100

DESCRIPTION = (
    "Looks for a pattern inside files and returns each matching line with its file path and "
    "line number. Files that .gitignore excludes are skipped. At most "
    f"{DEFAULT_LIMIT} matches or {DEFAULT_MAX_BYTES // 1024}KB come back, whichever limit comes "
    f"first, and a line longer than {GREP_MAX_LINE_LENGTH} characters is shortened."
)

_MATCH_PREFIX = b'{"type":"match"'


@dataclass(frozen=True)
class GrepMatch:
    """One matching line reported by ripgrep."""

    path: str
    line_number: int
    line_text: str | None


def _decode_field(field: Any) -> str | None:
    """Read ripgrep's `{"text": …}` or base64 `{"bytes": …}` JSON field."""
    if not isinstance(field, dict):
        return None
    if isinstance(field.get("text"), str):
        return str(field["text"])
    if isinstance(field.get("bytes"), str):
        return os.fsdecode(base64.b64decode(field["bytes"]))
    return None


def rg_arguments(params: GrepToolInput, search_path: str) -> list[str]:
    """Return the ripgrep arguments pi uses for these parameters."""
    args = ["--json", "--line-number", "--color=never", "--hidden"]
    if params.ignore_case:
        args.append("--ignore-case")
    if params.literal:
        args.append("--fixed-strings")
    if params.glob:
        args += ["--glob", params.glob]
    return [*args, "--", params.pattern, search_path]


async def _collect(rg: RipgrepProcess, limit: int) -> tuple[list[GrepMatch], int, bool]:
    matches: list[GrepMatch] = []
    count = 0
    async for line in rg.lines():
        if not line.startswith(_MATCH_PREFIX):
            continue
        try:
            data = json.loads(line)["data"]
        except (ValueError, KeyError, TypeError):
            continue
        count += 1
        path = _decode_field(data.get("path"))
        number = data.get("line_number")
        if path is not None and isinstance(number, int):
            text = data.get("lines", {}).get("text")
            matches.append(GrepMatch(path, number, text if isinstance(text, str) else None))
        if count >= limit:
            rg.stop()
            return matches, count, True
    return matches, count, False


class _Formatter:
    """Turns matches into pi's `path:line: text` rows (context rows are `path-line- text`)."""

    def __init__(self, search_path: str, is_directory: bool, context: int) -> None:
        self.search_path = search_path
        self.is_directory = is_directory
        self.context = context
        self.lines_truncated = False
        self._files: dict[str, list[str]] = {}

    def path(self, file_path: str) -> str:
        """Show a path relative to the searched folder (or the bare name for a searched file)."""
        if self.is_directory:
            relative = os.path.relpath(file_path, self.search_path)
            if relative and not relative.startswith(".."):
                return to_posix(relative)
        return os.path.basename(file_path)

    def _file_lines(self, file_path: str) -> list[str]:
        if file_path not in self._files:
            try:
                with open(file_path, encoding="utf-8", errors="replace", newline="") as handle:
                    content = handle.read()
                lines = content.replace("\r\n", "\n").replace("\r", "\n").split("\n")
            except OSError:
                lines = []
            self._files[file_path] = lines
        return self._files[file_path]

    def preload(self, file_path: str, content: str | None) -> None:
        """Use `content` as the text of `file_path` (a back-end's file, not a local one; None:
        it could not be read)."""
        if content is None:
            self._files[file_path] = []
            return
        self._files[file_path] = content.replace("\r\n", "\n").replace("\r", "\n").split("\n")

    def _cut(self, text: str) -> str:
        shortened, cut = truncate_line(text)
        self.lines_truncated = self.lines_truncated or cut
        return shortened

    def rows(self, match: GrepMatch) -> list[str]:
        """Return the output rows of one match, with its context lines."""
        shown = self.path(match.path)
        if self.context == 0 and match.line_text is not None:
            text = match.line_text.replace("\r\n", "\n").replace("\r", "").removesuffix("\n")
            return [f"{shown}:{match.line_number}: {self._cut(text)}"]
        lines = self._file_lines(match.path)
        if not lines:
            return [f"{shown}:{match.line_number}: (unable to read file)"]
        first = max(1, match.line_number - self.context) if self.context else match.line_number
        last = (
            min(len(lines), match.line_number + self.context) if self.context else match.line_number
        )
        rows: list[str] = []
        for number in range(first, last + 1):
            text = self._cut(
                (lines[number - 1] if number - 1 < len(lines) else "").replace("\r", "")
            )
            separator = ":" if number == match.line_number else "-"
            rows.append(f"{shown}{separator}{number}{separator} {text}")
        return rows


async def _run_rg(
    params: GrepToolInput, search_path: str, limit: int, signal: AbortSignal | None
) -> tuple[list[GrepMatch], int, bool]:
    rg = await RipgrepProcess.start(rg_arguments(params, search_path))
    try:
        matches, count, limit_reached = await abortable(_collect(rg, limit), signal)
        code, stderr = await abortable(rg.wait(), signal)
    except BaseException:
        await rg.kill()
        raise
    if not rg.stopped and code not in (0, 1):
        raise _rg_error(stderr, code, params.pattern)
    return matches, count, limit_reached


def _query(params: GrepToolInput, search_path: str, limit: int) -> GrepQuery:
    return GrepQuery(
        pattern=params.pattern,
        path=search_path,
        ignore_case=bool(params.ignore_case),
        literal=bool(params.literal),
        glob=params.glob,
        limit=limit,
    )


async def _search_through(
    operations: GrepOperations, query: GrepQuery
) -> tuple[list[GrepMatch], bool]:
    hits = await operations.search(query)
    matches = [GrepMatch(hit.path, hit.line_number, hit.line) for hit in hits[: query.limit]]
    return matches, len(hits) > query.limit


async def _text_or_none(operations: GrepOperations, path: str) -> str | None:
    try:
        return await operations.read_file(path)
    except OSError:
        return None


async def ripgrep_hits(query: GrepQuery) -> list[GrepHit]:
    """Run ripgrep for a query on this machine (LocalGrepOperations' search)."""
    params = GrepToolInput(
        pattern=query.pattern,
        path=query.path,
        ignore_case=query.ignore_case,
        literal=query.literal,
        glob=query.glob,
    )
    matches, _, _ = await _run_rg(params, query.path, query.limit + 1, None)
    return [GrepHit(m.path, m.line_number, (m.line_text or "").rstrip("\r\n")) for m in matches]


class LocalGrepOperations:
    """`grep` on this machine, with ripgrep."""

    async def is_directory(self, path: str) -> bool:
        """Return whether `path` is a folder."""
        return await asyncio.to_thread(is_local_directory, path)

    async def search(self, query: GrepQuery) -> list[GrepHit]:
        """Run ripgrep for the query."""
        return await ripgrep_hits(query)

    async def read_file(self, path: str) -> str:
        """Return the file's text (undecodable bytes replaced)."""
        data = await asyncio.to_thread(read_local_bytes, path)
        return data.decode("utf-8", "replace")


def _rg_error(stderr: str, code: int, pattern: str) -> Exception:
    message = stderr.strip() or f"ripgrep exited with code {code}"
    if "regex parse error" in message:
        return ValueError(
            f"Invalid regex pattern {pattern!r} (set literal: true to search for the text "
            f"as is):\n{message}"
        )
    return RuntimeError(message)


class GrepTool(Tool[GrepToolInput]):
    """Search file contents with ripgrep."""

    name = "grep"
    label = "grep"
    description = DESCRIPTION
    parameters = GrepToolInput
    prompt_snippet = "Search inside files for a pattern, skipping what .gitignore excludes"

    async def execute(
        self,
        call_id: str,
        params: GrepToolInput,
        signal: AbortSignal | None,
        on_update: ToolUpdateCallback | None,
        ctx: ExtensionContext,
    ) -> ToolResult:
        """Search `params.path` (default: the session cwd) for `params.pattern`."""
        check_aborted(signal)
        search_path = resolve_to_cwd(params.path or ".", ctx.cwd)
        operations = session_operations(ctx).grep or LocalGrepOperations()
        try:
            is_directory = await operations.is_directory(search_path)
        except OSError:
            raise FileNotFoundError(f"Path not found: {search_path}") from None
        context = params.context if params.context and params.context > 0 else 0
        limit = max(1, params.limit if params.limit is not None else DEFAULT_LIMIT)
        formatter = _Formatter(search_path, is_directory, context)
        if type(operations) is LocalGrepOperations:
            matches, count, limit_reached = await _run_rg(params, search_path, limit, signal)
        else:
            query = _query(params, search_path, limit)
            matches, limit_reached = await abortable(_search_through(operations, query), signal)
            count = len(matches)
            if context:
                for file_path in dict.fromkeys(match.path for match in matches):
                    formatter.preload(file_path, await _text_or_none(operations, file_path))
        if count == 0:
            return ToolResult.text("No matches found")
        rows = [row for match in matches for row in formatter.rows(match)]
        truncation = truncate_head("\n".join(rows), max_lines=UNLIMITED_LINES)
        output = truncation.content
        details = GrepToolDetails()
        limit_notice = None
        if limit_reached:
            limit_notice = (
                f"{limit} matches limit reached. Use limit={limit * 2} for more, or refine pattern"
            )
            details.match_limit_reached = limit
        extra = []
        if formatter.lines_truncated:
            extra.append(
                f"Lines over {GREP_MAX_LINE_LENGTH} chars were shortened. "
                "The read tool shows them whole"
            )
            details.lines_truncated = True
        return listing_result(output, details, limit_notice, truncation, extra)

    def render_call(self, args: GrepToolInput, theme: Any) -> Text:
        """`grep /pattern/ in path (glob) limit N`."""
        text = new_text()
        text.append("grep", style(theme, "toolTitle"))
        text.append(f" /{arg(args, 'pattern') or ''}/", style(theme, "accent"))
        path = arg(args, "path")
        text.append(f" in {shorten_path(path or '.')}", style(theme, "toolOutput"))
        if arg(args, "glob"):
            text.append(f" ({arg(args, 'glob')})", style(theme, "toolOutput"))
        if arg(args, "limit") is not None:
            text.append(f" limit {arg(args, 'limit')}", style(theme, "toolOutput"))
        return text

    def render_result(self, result: ToolResult, options: dict[str, bool], theme: Any) -> Text:
        """The first 15 rows (all when expanded) and what cut the output."""
        details = as_details(result, GrepToolDetails)
        extra = ["some lines truncated"] if details is not None and details.lines_truncated else []
        return listing_result_view(
            result,
            options,
            theme,
            15,
            GrepToolDetails,
            "match_limit_reached",
            "matches limit",
            extra,
        )


def create_tool() -> GrepTool:
    """Return a new `grep` tool."""
    return GrepTool()


@hookimpl
def register_tools(register: Callable[..., None]) -> None:
    """Register `grep`."""
    register(create_tool())
