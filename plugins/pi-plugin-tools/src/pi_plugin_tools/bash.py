"""The `bash` tool: run a command in the session cwd, stream its output, keep the last part."""

from __future__ import annotations

import codecs
import signal as signals
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pi_core import hookimpl
from pi_core.events import BashResult, SessionShutdownEvent, UserBashEvent, UserBashResult
from pi_core.messages import TextContent
from pi_core.tools import BashToolDetails, BashToolInput, Tool, ToolResult, ToolUpdateCallback
from pi_plugin_tools.operations import (
    LocalBashOperations,
    apply_spawn_hook,
    session_operations,
)
from pi_plugin_tools.output import OutputAccumulator, OutputSnapshot, remove_session_logs
from pi_plugin_tools.render import (
    arg,
    as_details,
    new_text,
    option,
    style,
    tail_lines,
    text_output,
)
from pi_plugin_tools.shell_settings import load_shell_settings
from pi_plugin_tools.truncate import DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, format_size
from pi_plugin_tools.updates import ThrottledUpdates

if TYPE_CHECKING:
    from rich.text import Text

    from pi_core import ExtensionContext
    from pi_core.abort import AbortSignal
    from pi_core.tools import BashExecResult

DESCRIPTION = (
    "Runs a bash command in the session's working directory and gives back what it printed to "
    f"stdout and stderr. Only the final {DEFAULT_MAX_LINES} lines or "
    f"{DEFAULT_MAX_BYTES // 1024}KB are returned, whichever limit comes first; when output is cut, "
    "all of it is kept in a temporary file whose path is reported. A timeout in seconds may be "
    "given."
)

PREVIEW_LINES = 5
"""Lines of output the collapsed REPL view shows."""


async def _run(
    ctx: ExtensionContext,
    params: BashToolInput,
    on_data: Callable[[bytes], None],
    signal: AbortSignal | None,
) -> BashExecResult:
    """Run the tool's command (with the shell's prefix) on the session's bash operations."""
    command = load_shell_settings(ctx.cwd).prefixed(params.command)
    return await _exec(ctx, command, ctx.cwd, on_data, signal, params.timeout)


async def _exec(
    ctx: ExtensionContext,
    command: str,
    cwd: str,
    on_data: Callable[[bytes], None],
    signal: AbortSignal | None,
    timeout: float | None,
) -> BashExecResult:
    """Run `command` on the session's bash operations, after the spawn hook."""
    operations = session_operations(ctx)
    runner = operations.bash
    if runner is None or (type(runner) is LocalBashOperations and runner.shell is None):
        runner = LocalBashOperations(load_shell_settings(cwd).shell_argv())
    spawn = apply_spawn_hook(operations, command, cwd)
    env = spawn.env if operations.spawn_hook is not None else None
    return await runner.exec(
        spawn.command, spawn.cwd, on_data=on_data, signal=signal, timeout=timeout, env=env
    )


class BashError(RuntimeError):
    """The command failed, timed out or was aborted; the message holds its output and status."""


def format_output(
    snapshot: OutputSnapshot, last_line_bytes: int, empty_text: str = "(no output)"
) -> tuple[str, BashToolDetails | None]:
    """Return the text the model sees (with pi's truncation note) and the details."""
    truncation = snapshot.truncation
    text = snapshot.content or empty_text
    if not truncation.truncated:
        return text, None
    details = BashToolDetails(truncation=truncation, full_output_path=snapshot.full_output_path)
    start = truncation.total_lines - truncation.output_lines + 1
    end = truncation.total_lines
    path = snapshot.full_output_path
    if truncation.last_line_partial:
        text += (
            f"\n\n[Showing last {format_size(truncation.output_bytes)} of line {end} "
            f"(line is {format_size(last_line_bytes)}). Full output: {path}]"
        )
    elif truncation.truncated_by == "lines":
        text += (
            f"\n\n[Showing lines {start}-{end} of {truncation.total_lines}. Full output: {path}]"
        )
    else:
        text += (
            f"\n\n[Showing lines {start}-{end} of {truncation.total_lines} "
            f"({format_size(DEFAULT_MAX_BYTES)} limit). Full output: {path}]"
        )
    return text, details


def _with_status(text: str, status: str) -> str:
    return f"{text}\n\n{status}" if text else status


def _signal_name(number: int) -> str:
    try:
        return signals.Signals(number).name
    except ValueError:
        return f"signal {number}"


class BashTool(Tool[BashToolInput]):
    """Run a bash command; abort or timeout kills its whole process group."""

    name = "bash"
    label = "bash"
    description = DESCRIPTION
    parameters = BashToolInput
    prompt_snippet = "Run shell commands with bash (ls, grep, find and the like)"

    async def execute(
        self,
        call_id: str,
        params: BashToolInput,
        signal: AbortSignal | None,
        on_update: ToolUpdateCallback | None,
        ctx: ExtensionContext,
    ) -> ToolResult:
        """Run `params.command` in the session cwd and return its (tail-truncated) output."""
        if signal is not None and signal.aborted:
            raise BashError("Command aborted")  # never start a command once the run is aborted
        output = OutputAccumulator(temp_file_prefix="pi-bash", owner=ctx.events)
        updates = ThrottledUpdates(output, on_update)
        updates.start()

        def on_data(chunk: bytes) -> None:
            output.append(chunk)
            updates.schedule()

        def finish() -> OutputSnapshot:
            output.finish()
            updates.cancel()
            updates.emit()
            snapshot = output.snapshot(persist_if_truncated=True)
            output.close()
            return snapshot

        try:
            outcome = await _run(ctx, params, on_data, signal)
        except BaseException:
            finish()
            raise
        finally:
            updates.cancel()
        snapshot = finish()
        if outcome.stopped is not None:
            text, _ = format_output(snapshot, output.last_line_bytes, empty_text="")
            if outcome.stopped == "aborted":
                raise BashError(_with_status(text, "Command aborted"))
            raise BashError(_with_status(text, f"Command timed out after {params.timeout} seconds"))
        text, details = format_output(snapshot, output.last_line_bytes)
        if outcome.signal_number is not None:
            name = _signal_name(outcome.signal_number)
            raise BashError(_with_status(text, f"Command was killed by {name}"))
        if outcome.exit_code not in (0, None):
            raise BashError(_with_status(text, f"Command exited with code {outcome.exit_code}"))
        return ToolResult(content=[TextContent(text=text)], details=details)

    def render_call(self, args: BashToolInput, theme: Any) -> Text:
        """`$ command (timeout Ns)`."""
        text = new_text()
        command = arg(args, "command")
        text.append(
            f"$ {command if isinstance(command, str) and command else '...'}",
            style(theme, "toolTitle"),
        )
        timeout = arg(args, "timeout")
        if timeout:
            text.append(f" (timeout {timeout}s)", style(theme, "muted"))
        return text

    def render_result(self, result: ToolResult, options: dict[str, Any], theme: Any) -> Text:
        """The last screen rows of output (all when expanded), then where the full output is."""
        text = new_text()
        output = text_output(result).strip()
        if output:
            width = options.get("width") if options else None
            expanded = option(options, "expanded")
            shown, skipped = tail_lines(output, PREVIEW_LINES, expanded, width)
            if skipped > 0:
                text.append(f"... ({skipped} earlier lines)\n", style(theme, "muted"))
            text.append("\n".join(shown), style(theme, "toolOutput"))
        warnings: list[str] = []
        details = as_details(result, BashToolDetails)
        truncation = details.truncation if details is not None else None
        if details is not None and details.full_output_path:
            warnings.append(f"Full output: {details.full_output_path}")
        if truncation is not None and truncation.truncated:
            kept, total = truncation.output_lines, truncation.total_lines
            if truncation.truncated_by == "lines":
                warnings.append(f"Truncated: showing {kept} of {total} lines")
            else:
                warnings.append(
                    f"Truncated: {truncation.output_lines} lines shown "
                    f"({format_size(truncation.max_bytes)} limit)"
                )
        if warnings:
            text.append(f"\n[{'. '.join(warnings)}]", style(theme, "warning"))
        return text


def create_tool() -> BashTool:
    """Return a new `bash` tool."""
    return BashTool()


@hookimpl
def register_tools(register: Callable[..., None]) -> None:
    """Register `bash`."""
    register(create_tool())


@hookimpl(trylast=True)
async def user_bash(event: UserBashEvent, ctx: ExtensionContext) -> UserBashResult:
    """Run the user's `!cmd` on the session's bash operations, as the tool runs its commands
    (the default runner; any other plugin's answer comes first)."""
    output = OutputAccumulator(temp_file_prefix="pi-bash", owner=ctx.events)
    decoder = codecs.getincrementaldecoder("utf-8")("replace")

    def on_data(chunk: bytes) -> None:
        output.append(chunk)
        if event.on_chunk is not None:
            text = decoder.decode(chunk)
            if text:
                event.on_chunk(text)

    try:
        # the session already put shellCommandPrefix before a `!` command
        outcome = await _exec(ctx, event.command, event.cwd, on_data, event.signal, None)
    finally:
        output.finish()
    snapshot = output.snapshot(persist_if_truncated=True)
    output.close()
    return UserBashResult(
        result=BashResult(
            output=snapshot.content,
            exit_code=outcome.exit_code,
            cancelled=outcome.stopped == "aborted",
            truncated=snapshot.truncation.truncated,
            full_output_path=snapshot.full_output_path,
        )
    )


@hookimpl
def session_shutdown(event: SessionShutdownEvent, ctx: ExtensionContext) -> None:
    """Delete the full-output logs the session's commands wrote: they hold command output."""
    remove_session_logs(ctx.events)
