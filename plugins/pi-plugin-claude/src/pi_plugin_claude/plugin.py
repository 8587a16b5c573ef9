"""The `pi` entry point: Claude Code's profile in plain pi, inert unless turned on.

- `toolProfile: "claude"` in settings (or the `--claude` flag): Claude's tools replace
  pi's seven built-in ones, CLAUDE.md memory joins the system prompt and
  `.claude/commands/*.md` become prompt templates.
- `claudeSettings: true` in settings: the hooks and permission rules of
  `.claude/settings*.json` and `~/.claude/settings.json` apply; "ask" uses `ctx.ui.confirm`.

The gate never fails open: everything it needs is imported with this module (a failed import is
a plugin load failure, and pi stops), and when setting it up fails at session start every tool
call is refused with the reason.

Each session has its own gate, built from its own folder's settings: `pi acp` and `pi mcp serve`
run several sessions in one process (see pi_plugin_claude.sessions).

(pi's flag parser accepts only plugin flag names without a hyphen, hence `--claude`.)
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

# The Bash permission parser (tree-sitter's grammar) loads with the plugin: a missing wheel fails
# the plugin's load (and so pi's start), never a permission check. The code that walks its trees
# (permissions.shell, bash_policy, readonly) is imported on the first Bash decision.
import pi_plugin_claude.permissions.grammar  # noqa: F401
from pi_core import SettingsManager, hookimpl
from pi_core.events import (
    AgentEndEvent,
    BeforeAgentStartEvent,
    BeforeAgentStartResult,
    InputEvent,
    InputHandled,
    ResourcesDiscoverEvent,
    ResourcesDiscoverResult,
    SessionBeforeCompactEvent,
    SessionBeforeCompactResult,
    SessionShutdownEvent,
    SessionStartEvent,
    ToolCallEvent,
    ToolCallResult,
    ToolResultEvent,
    ToolResultPatch,
)
from pi_plugin_claude.bridge import ClaudeCompat
from pi_plugin_claude.context import claude_memory_files, command_dirs, memory_prompt
from pi_plugin_claude.opt_in import KEY, UNSET, OptIn, decide_opt_in
from pi_plugin_claude.permissions import (
    AskCallback,
    AskRequest,
    PermissionAllow,
    PermissionAnswer,
    PermissionDeny,
    no_prompt_message,
)
from pi_plugin_claude.profile import create_claude_tools
from pi_plugin_claude.runtime import create_claude_runtime
from pi_plugin_claude.sessions import ClaudeSession, claude_session, forget_session, known_session
from pi_plugin_claude.settings_check import closed_reason

if TYPE_CHECKING:
    from pi_core import ExtensionContext

PI_BUILTIN_TOOLS = ("read", "write", "edit", "bash", "grep", "find", "ls")


def _agent_dir() -> str:
    override = os.environ.get("PI_CODING_AGENT_DIR")
    if override:
        return str(Path(os.path.expanduser(override.strip())).resolve())
    return str(Path.home() / ".pi" / "agent")


_UNSET = object()


def _setting(ctx: ExtensionContext, key: str) -> Any:
    """The session's own setting (its agent folder may be the editor's, not the process's);
    where it sets none, the files of the process's agent folder and the session's project."""
    value = ctx.settings.get(key, _UNSET)
    if value is not _UNSET:
        return value
    return SettingsManager.create(ctx.cwd, _agent_dir()).get_raw(key)


def profile_enabled(ctx: ExtensionContext) -> bool:
    """Whether `--claude` or the `toolProfile: "claude"` setting asks for Claude's tools."""
    if ctx.get_flag("claude") is True:
        return True
    return bool(_setting(ctx, "toolProfile") == "claude")


def settings_opt_in(ctx: ExtensionContext) -> OptIn:
    """`claudeSettings` on, off, or unknown because a settings file that may set it is broken."""
    process = SettingsManager.create(ctx.cwd, _agent_dir())
    errors = (process.load_error(scope) for scope in ("project", "global"))
    unusable = ctx.settings.unusable_files() + [(e.path, str(e)) for e in errors if e is not None]
    value = ctx.settings.get(KEY, UNSET)  # the session's own settings first, as in _setting
    if value is UNSET:
        value = process.get_raw(KEY, UNSET)
    return decide_opt_in(value, dict(unusable).items())


def confirm_with_ui(ctx: ExtensionContext) -> AskCallback:
    """The AskCallback of plain pi: a yes/no dialog (no UI, as in `pi -p`: denied)."""

    async def ask(request: AskRequest) -> PermissionAnswer:
        if not ctx.has_ui:
            unasked = request.decision.unasked_message
            return PermissionDeny(unasked or no_prompt_message(request.tool_name))
        detail = request.input.get("command") or request.input.get("file_path") or ""
        allowed = await ctx.ui.confirm(
            f"Allow {request.tool_name}?", f"{request.decision.message}\n{detail}".strip()
        )
        if allowed:
            return PermissionAllow()
        return PermissionDeny(f"The user denied {request.tool_name}.")

    return ask


@hookimpl
def register_flags(register: Callable[..., None]) -> None:
    """`--claude`: Claude Code's tool profile for this run."""
    register(
        "claude",
        type="boolean",
        default=False,
        description="Use Claude Code's tools (Bash, Read, Edit, ...) instead of pi's",
    )


@hookimpl
async def session_start(event: SessionStartEvent, ctx: ExtensionContext) -> None:
    """Turn the Claude settings gate and the profile on, if asked for (the gate first)."""
    state = _gated_session(ctx, starting=True)
    state.profile = profile_enabled(ctx)
    if state.profile:
        tools = create_claude_tools(ctx.cwd)
        for tool in tools:
            ctx.register_tool(tool)
        active = [n for n in ctx.get_active_tools() if n not in PI_BUILTIN_TOOLS]
        ctx.set_active_tools(active + [t.name for t in tools if t.name not in active])
    if state.compat is not None:
        await state.compat.session_start(event, ctx)


def _gated_session(ctx: ExtensionContext, *, starting: bool = False) -> ClaudeSession:
    """The state of `ctx`'s session, its gate set up from its own folder's settings (at each
    start until `claudeSettings` turns it on; a gate that failed stays closed)."""
    state = claude_session(ctx)
    if state.closed is not None:
        starting = True  # try again: the broken settings file may have been fixed since
    if not state.gate_ready or (starting and state.compat is None and state.broken is None):
        state.gate_ready = True
        _set_up_gate(ctx, state)
    return state


def _set_up_gate(ctx: ExtensionContext, state: ClaudeSession) -> None:
    """Build the gate when `claudeSettings` asks for it; a failure refuses every later call."""
    try:
        opt_in = settings_opt_in(ctx)
        if opt_in.unknown is not None:
            _close(ctx, state, opt_in.unknown)
            return
        state.closed = None
        if not opt_in.enabled:
            return
        runtime = create_claude_runtime(ctx.cwd, ask=confirm_with_ui(ctx))
        if runtime.settings.unusable:
            _close(ctx, state, closed_reason(runtime.settings.unusable))
            return
        state.compat = ClaudeCompat(runtime)
        state.broken = None
    except Exception as error:
        state.broken = f"{type(error).__name__}: {error}"
        _report(ctx, f"Claude settings: the permission gate could not be set up ({state.broken}); "
                "every tool call will be refused")  # fmt: skip
        return
    for problem in runtime.problems:
        ctx.ui.notify(f"Claude settings: {problem}", "warning")


def _close(ctx: ExtensionContext, state: ClaudeSession, reason: str) -> None:
    """Keep the gate closed for `reason` (a broken settings file), told once per new reason."""
    if state.closed != reason:
        _report(ctx, reason)
    state.closed = reason


def _report(ctx: ExtensionContext, message: str) -> None:
    """Tell the user: the UI when there is one, else stderr (print mode)."""
    if ctx.has_ui:
        ctx.ui.notify(message, "error")
    else:
        print(message, file=sys.stderr, flush=True)


@hookimpl
def resources_discover(
    event: ResourcesDiscoverEvent, ctx: ExtensionContext
) -> ResourcesDiscoverResult | None:
    """`.claude/commands/*.md` as prompt templates (with the profile on)."""
    state = known_session(ctx)
    if not ((state is not None and state.profile) or profile_enabled(ctx)):
        return None
    folders = command_dirs(event.cwd)
    return ResourcesDiscoverResult(prompt_paths=folders) if folders else None


@hookimpl
def before_agent_start(
    event: BeforeAgentStartEvent, ctx: ExtensionContext
) -> BeforeAgentStartResult | None:
    """CLAUDE.md memory in the system prompt, and hook context as a message."""
    state = known_session(ctx)
    compat = state.compat if state is not None else None
    profile = state is not None and state.profile
    prompt = memory_prompt(claude_memory_files(ctx.cwd)) if profile else ""
    injected = compat.before_agent_start(event) if compat is not None else None
    if not prompt and injected is None:
        return None
    return BeforeAgentStartResult(
        system_prompt=f"{event.system_prompt}\n\n{prompt}" if prompt else None,
        message=injected.message if injected is not None else None,
    )


@hookimpl
async def tool_call(event: ToolCallEvent, ctx: ExtensionContext) -> ToolCallResult | None:
    """PreToolUse hooks and permission rules (with Claude settings on); none if setup failed.

    A session whose start this plugin did not see (served coding tools) gets its gate here."""
    state = _gated_session(ctx)
    if state.broken is not None:
        reason = f"Claude settings could not be set up, so no tool may run: {state.broken}"
        return ToolCallResult(block=True, reason=reason)
    if state.closed is not None:
        return ToolCallResult(block=True, reason=state.closed)
    return await state.compat.tool_call(event, ctx) if state.compat is not None else None


def _compat(ctx: ExtensionContext) -> ClaudeCompat | None:
    """The settings gate and hooks of `ctx`'s session, if it has them."""
    state = known_session(ctx)
    return state.compat if state is not None else None


@hookimpl
async def tool_result(event: ToolResultEvent, ctx: ExtensionContext) -> ToolResultPatch | None:
    """PostToolUse hooks (with Claude settings on)."""
    compat = _compat(ctx)
    return await compat.tool_result(event, ctx) if compat is not None else None


@hookimpl
async def input(event: InputEvent, ctx: ExtensionContext) -> InputHandled | None:
    """UserPromptSubmit hooks (with Claude settings on)."""
    compat = _compat(ctx)
    return await compat.input(event, ctx) if compat is not None else None


@hookimpl
async def agent_end(event: AgentEndEvent, ctx: ExtensionContext) -> None:
    """Stop hooks (with Claude settings on)."""
    compat = _compat(ctx)
    if compat is not None:
        await compat.agent_end(event, ctx)


@hookimpl
async def session_before_compact(
    event: SessionBeforeCompactEvent, ctx: ExtensionContext
) -> SessionBeforeCompactResult | None:
    """PreCompact hooks (with Claude settings on)."""
    compat = _compat(ctx)
    if compat is None:
        return None
    return await compat.session_before_compact(event, ctx)


@hookimpl
async def session_shutdown(event: SessionShutdownEvent, ctx: ExtensionContext) -> None:
    """SessionEnd hooks (with Claude settings on); the session's background Bash commands end
    with it, and so does its state (kept across /new, /resume and /fork)."""
    state = known_session(ctx)
    if state is None:
        return
    if state.compat is not None:
        await state.compat.session_shutdown(event, ctx)
    if event.reason != "quit":
        return
    forget_session(ctx)
    if state.profile:
        from pi_plugin_claude.profile.bash import stop_background_commands

        await stop_background_commands(ctx.events)
