"""Every pi hook, declared once.

Event hooks take `(event, ctx)`; registration hooks take `(register, ctx)`.

An implementation may accept any subset of a hook's arguments, and may be `def` or `async def`
(registration hooks must be `def`). The semantics named in each docstring are applied by
`pi_core.plugins.dispatch`:

- notify: every impl runs; results are ignored; an exception is reported and the next impl runs.
- cancel: a result with `cancel=True` stops the walk; otherwise the last non-None result stands.
- block: the first result with `block=True` stops the walk; an exception also blocks (fail closed).
- chain: each impl sees what the previous one produced.
- first: the first non-None result wins.
- aggregate: all results are merged, each path tagged with its plugin.

Impls run in pluggy's call order: `tryfirst` impls, then the rest with the most recently loaded
plugin first, then `trylast` impls.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal, TypeVar

import pluggy

if TYPE_CHECKING:
    from pi_core.events import (
        AfterProviderResponseEvent,
        AgentEndEvent,
        AgentStartEvent,
        BeforeAgentStartEvent,
        BeforeAgentStartResult,
        BeforeProviderRequestEvent,
        ContextEvent,
        ContextResult,
        InputEvent,
        InputResult,
        MessageEndEvent,
        MessageEndResult,
        MessageStartEvent,
        MessageUpdateEvent,
        ModelSelectEvent,
        ResourcesDiscoverEvent,
        ResourcesDiscoverResult,
        SessionBeforeCompactEvent,
        SessionBeforeCompactResult,
        SessionBeforeForkEvent,
        SessionBeforeForkResult,
        SessionBeforeSwitchEvent,
        SessionBeforeSwitchResult,
        SessionBeforeTreeEvent,
        SessionBeforeTreeResult,
        SessionCompactEvent,
        SessionForkEvent,
        SessionShutdownEvent,
        SessionStartEvent,
        SessionSwitchEvent,
        SessionTreeEvent,
        ThinkingLevelSelectEvent,
        ToolCallEvent,
        ToolCallResult,
        ToolExecutionEndEvent,
        ToolExecutionStartEvent,
        ToolExecutionUpdateEvent,
        ToolResultEvent,
        ToolResultPatch,
        TurnEndEvent,
        TurnStartEvent,
        UserBashEvent,
        UserBashResult,
    )
    from pi_core.plugins.context import ExtensionContext

PROJECT_NAME = "pi"

HOOK_API_VERSION = "1.2"
"""The version of the hooks below, MAJOR.MINOR: a new minor only adds hooks or arguments; a new
major removes, renames or changes one. A plugin may require one with `PI_HOOK_API = "1.0"`."""

hookspec = pluggy.HookspecMarker(PROJECT_NAME)
hookimpl = pluggy.HookimplMarker(PROJECT_NAME)

Semantics = Literal["notify", "cancel", "block", "chain", "first", "aggregate"]
EVENT_HOOKS: dict[str, Semantics] = {}
"""Event hook name → how its results combine; filled by the declarations below."""

REGISTRATION_HOOKS: list[str] = []
"""Names of the hooks that run once per plugin at load time."""

F = TypeVar("F", bound=Callable[..., Any])


def _event(semantics: Semantics) -> Callable[[F], F]:
    def declare(spec: F) -> F:
        EVENT_HOOKS[spec.__name__] = semantics
        return hookspec(spec)

    return declare


def _registration(spec: F) -> F:
    REGISTRATION_HOOKS.append(spec.__name__)
    return hookspec(spec)


# --- registration (load time) -------------------------------------------------------------


@_registration
def register_tools(register: Callable[..., None], ctx: ExtensionContext) -> None:
    """Register tools the LLM can call: `register(tool)`; a later plugin's same-named tool wins."""


@_registration
def register_commands(register: Callable[..., None], ctx: ExtensionContext) -> None:
    """Register slash commands: `register(name, handler, description=...)`; built-ins win."""


@_registration
def register_flags(register: Callable[..., None], ctx: ExtensionContext) -> None:
    """Register CLI flags: `register(name, type="boolean" or "string", default, description)`."""


@_registration
def register_shortcuts(register: Callable[..., None], ctx: ExtensionContext) -> None:
    """Register REPL key bindings: `register(key, handler, description=...)`."""


@_registration
def register_message_renderers(register: Callable[..., None], ctx: ExtensionContext) -> None:
    """Register how custom messages render in the REPL: `register(custom_type, renderer)`."""


@_registration
def register_completions(register: Callable[..., None], ctx: ExtensionContext) -> None:
    """Register `@` mentions for the REPL: `register(name, complete, resolve, description=...)`."""


@_registration
def register_providers(register: Callable[..., None], ctx: ExtensionContext) -> None:
    """Register LLM providers: `register(name, ProviderConfig(...))`; applied at session bind."""


@_registration
def register_login_providers(register: Callable[..., None], ctx: ExtensionContext) -> None:
    """Register subscription logins for `/login`: `register(LoginProvider)` (pi_core.ai.oauth)."""


@_registration
def register_tool_operations(register: Callable[..., None], ctx: ExtensionContext) -> None:
    """Run built-in tools elsewhere: `register(ToolOperations(...))`; a later plugin's kind wins."""


# --- resources ----------------------------------------------------------------------------


@_event("aggregate")
def resources_discover(
    event: ResourcesDiscoverEvent, ctx: ExtensionContext
) -> ResourcesDiscoverResult | None:
    """Aggregate: add skill, prompt-template and theme paths; every impl's paths are merged."""


# --- session lifecycle --------------------------------------------------------------------


@_event("notify")
def session_start(event: SessionStartEvent, ctx: ExtensionContext) -> None:
    """Notify: a session started, loaded or reloaded; plugins may act from here on."""


@_event("cancel")
def session_before_switch(
    event: SessionBeforeSwitchEvent, ctx: ExtensionContext
) -> SessionBeforeSwitchResult | None:
    """Cancel: return `cancel=True` to stop a new session or a resume."""


@_event("notify")
def session_switch(event: SessionSwitchEvent, ctx: ExtensionContext) -> None:
    """Notify: the session was switched (new or resumed)."""


@_event("cancel")
def session_before_fork(
    event: SessionBeforeForkEvent, ctx: ExtensionContext
) -> SessionBeforeForkResult | None:
    """Cancel: return `cancel=True` to stop a fork."""


@_event("notify")
def session_fork(event: SessionForkEvent, ctx: ExtensionContext) -> None:
    """Notify: the session was forked into a new file."""


@_event("cancel")
def session_before_compact(
    event: SessionBeforeCompactEvent, ctx: ExtensionContext
) -> SessionBeforeCompactResult | None:
    """Cancel: `cancel=True` stops compaction; otherwise the last `compaction` returned is used."""


@_event("notify")
def session_compact(event: SessionCompactEvent, ctx: ExtensionContext) -> None:
    """Notify: a compaction entry was stored."""


@_event("notify")
def session_shutdown(event: SessionShutdownEvent, ctx: ExtensionContext) -> None:
    """Notify: the runtime is shutting down (quit, reload or session replacement)."""


@_event("cancel")
def session_before_tree(
    event: SessionBeforeTreeEvent, ctx: ExtensionContext
) -> SessionBeforeTreeResult | None:
    """Cancel: `cancel=True` stops a tree navigation; else the last result's summary is used."""


@_event("notify")
def session_tree(event: SessionTreeEvent, ctx: ExtensionContext) -> None:
    """Notify: the leaf moved in the session tree."""


# --- agent loop ---------------------------------------------------------------------------


@_event("chain")
def context(event: ContextEvent, ctx: ExtensionContext) -> ContextResult | None:
    """Chain: replace the messages sent to the LLM; each impl sees the previous impl's list."""


@_event("chain")
def before_provider_request(event: BeforeProviderRequestEvent, ctx: ExtensionContext) -> Any:
    """Chain: return a replacement provider payload; each impl sees the previous impl's payload."""


@_event("notify")
def after_provider_response(event: AfterProviderResponseEvent, ctx: ExtensionContext) -> None:
    """Notify: the provider answered with this status and these headers."""


@_event("chain")
def before_agent_start(
    event: BeforeAgentStartEvent, ctx: ExtensionContext
) -> BeforeAgentStartResult | None:
    """Chain: the system prompt is chained through impls; injected messages are collected."""


@_event("notify")
def agent_start(event: AgentStartEvent, ctx: ExtensionContext) -> None:
    """Notify: the agent loop started."""


@_event("notify")
def agent_end(event: AgentEndEvent, ctx: ExtensionContext) -> None:
    """Notify: the agent loop ended."""


@_event("notify")
def turn_start(event: TurnStartEvent, ctx: ExtensionContext) -> None:
    """Notify: a turn started."""


@_event("notify")
def turn_end(event: TurnEndEvent, ctx: ExtensionContext) -> None:
    """Notify: a turn ended with its assistant message and tool results."""


@_event("notify")
def message_start(event: MessageStartEvent, ctx: ExtensionContext) -> None:
    """Notify: a message started."""


@_event("notify")
def message_update(event: MessageUpdateEvent, ctx: ExtensionContext) -> None:
    """Notify: a streaming assistant message changed."""


@_event("chain")
def message_end(event: MessageEndEvent, ctx: ExtensionContext) -> MessageEndResult | None:
    """Chain: a message is final; an impl may replace it (same role) for the impls after it."""


@_event("notify")
def tool_execution_start(event: ToolExecutionStartEvent, ctx: ExtensionContext) -> None:
    """Notify: a tool started running."""


@_event("notify")
def tool_execution_update(event: ToolExecutionUpdateEvent, ctx: ExtensionContext) -> None:
    """Notify: a running tool reported partial output."""


@_event("notify")
def tool_execution_end(event: ToolExecutionEndEvent, ctx: ExtensionContext) -> None:
    """Notify: a tool finished."""


# --- tools --------------------------------------------------------------------------------


@_event("block")
def tool_call(event: ToolCallEvent, ctx: ExtensionContext) -> ToolCallResult | None:
    """Block: `block=True` stops the tool and tells the LLM `reason`; an exception also blocks."""


@_event("chain")
def tool_result(event: ToolResultEvent, ctx: ExtensionContext) -> ToolResultPatch | None:
    """Chain: patch content, details or is_error; each impl sees the previous impl's patch."""


# --- model and user -----------------------------------------------------------------------


@_event("notify")
def model_select(event: ModelSelectEvent, ctx: ExtensionContext) -> None:
    """Notify: a model was selected (set, cycled or restored)."""


@_event("notify")
def thinking_level_select(event: ThinkingLevelSelectEvent, ctx: ExtensionContext) -> None:
    """Notify: a thinking level was selected."""


@_event("first")
def user_bash(event: UserBashEvent, ctx: ExtensionContext) -> UserBashResult | None:
    """First: the first impl to return a result runs (or has run) the user's `!` command."""


@_event("chain")
def input(event: InputEvent, ctx: ExtensionContext) -> InputResult | None:
    """Chain: transform the user's input in turn; `handled` consumes it and stops the walk."""
