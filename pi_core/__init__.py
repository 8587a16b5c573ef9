"""pi for Python: the public face for SDK users and plugin authors.

The rest of the public API lives in documented modules (docs/api.md): `pi_core.events` (every
hook's event and result), `pi_core.messages`, `pi_core.tools` (the tool API), `pi_core.providers`
(the provider API), `pi_core.ai.http`, `pi_core.compaction`, `pi_core.abort`,
`pi_core.terminal_text` and `pi_core.testing`.
Everything else is internal.

Names load lazily, so `import pi_core` (and `pi --version`) stays fast. The imports under
TYPE_CHECKING use `X as X` so type checkers see them as exported (plugins run mypy --strict);
tests/architecture checks that they and `_EXPORTS` name the same things.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from pi_core._version import __version__

if TYPE_CHECKING:
    from pi_core.abort import (
        AbortController as AbortController,
        AbortError as AbortError,
        AbortSignal as AbortSignal,
    )
    from pi_core.agent.agent import (
        Agent as Agent,
        AgentOptions as AgentOptions,
        AgentState as AgentState,
    )
    from pi_core.agent_session.session import (
        AgentSession as AgentSession,
    )
    from pi_core.agent_session.toolset import (
        ToolSelection as ToolSelection,
    )
    from pi_core.ai.auth import (
        AuthStorage as AuthStorage,
    )
    from pi_core.ai.model import (
        Model as Model,
        ProviderConfig as ProviderConfig,
    )
    from pi_core.ai.model_registry import (
        MissingApiKeyError as MissingApiKeyError,
        ModelRegistry as ModelRegistry,
        UnknownModelError as UnknownModelError,
    )
    from pi_core.config.paths import (
        agent_dir as agent_dir,
    )
    from pi_core.events import (
        ToolCallEvent as ToolCallEvent,
        ToolCallResult as ToolCallResult,
        ToolResultEvent as ToolResultEvent,
        ToolResultPatch as ToolResultPatch,
        make_tool_call_event as make_tool_call_event,
        make_tool_result_event as make_tool_result_event,
    )
    from pi_core.hookspecs import (
        HOOK_API_VERSION as HOOK_API_VERSION,
        hookimpl as hookimpl,
    )
    from pi_core.messages import (
        AgentMessage as AgentMessage,
        AssistantMessage as AssistantMessage,
        ImageContent as ImageContent,
        TextContent as TextContent,
        ToolCall as ToolCall,
        ToolResultMessage as ToolResultMessage,
        UserMessage as UserMessage,
    )
    from pi_core.plugins.context import (
        CommandContext as CommandContext,
        ExecResult as ExecResult,
        ExtensionContext as ExtensionContext,
    )
    from pi_core.plugins.errors import (
        Diagnostic as Diagnostic,
        HookError as HookError,
        PluginActionError as PluginActionError,
        PluginLoadError as PluginLoadError,
        PluginLoadFailed as PluginLoadFailed,
    )
    from pi_core.plugins.event_bus import (
        EventBus as EventBus,
    )
    from pi_core.plugins.manager import (
        LoadOptions as LoadOptions,
        LoadedPlugin as LoadedPlugin,
        PluginManager as PluginManager,
        load_plugins as load_plugins,
    )
    from pi_core.plugins.ui import (
        ExtensionUI as ExtensionUI,
        NoOpUI as NoOpUI,
    )
    from pi_core.resources.resource_loader import (
        ResourceLoader as ResourceLoader,
    )
    from pi_core.resources.settings import (
        SettingsManager as SettingsManager,
    )
    from pi_core.sdk import (
        create_agent_session as create_agent_session,
    )
    from pi_core.session.context import (
        SessionContext as SessionContext,
    )
    from pi_core.modes.interactive.standalone_login import (
        run_login as run_login,
    )
    from pi_core.session.manager import (
        SessionManager as SessionManager,
    )
    from pi_core.tools import (
        Tool as Tool,
        ToolArgumentsError as ToolArgumentsError,
        ToolResult as ToolResult,
        ToolUpdateCallback as ToolUpdateCallback,
        define_tool as define_tool,
    )
    from pi_core.tools.decorator import (
        tool as tool,
    )

_EXPORTS: dict[str, str] = {
    "AbortController": "pi_core.abort",
    "AbortError": "pi_core.abort",
    "AbortSignal": "pi_core.abort",
    "Agent": "pi_core.agent.agent",
    "AgentOptions": "pi_core.agent.agent",
    "AgentState": "pi_core.agent.agent",
    "AgentSession": "pi_core.agent_session.session",
    "ToolSelection": "pi_core.agent_session.toolset",
    "AuthStorage": "pi_core.ai.auth",
    "Model": "pi_core.ai.model",
    "ProviderConfig": "pi_core.ai.model",
    "MissingApiKeyError": "pi_core.ai.model_registry",
    "ModelRegistry": "pi_core.ai.model_registry",
    "UnknownModelError": "pi_core.ai.model_registry",
    "agent_dir": "pi_core.config.paths",
    "ToolCallEvent": "pi_core.events",
    "ToolCallResult": "pi_core.events",
    "ToolResultEvent": "pi_core.events",
    "ToolResultPatch": "pi_core.events",
    "make_tool_call_event": "pi_core.events",
    "make_tool_result_event": "pi_core.events",
    "HOOK_API_VERSION": "pi_core.hookspecs",
    "hookimpl": "pi_core.hookspecs",
    "AgentMessage": "pi_core.messages",
    "AssistantMessage": "pi_core.messages",
    "ImageContent": "pi_core.messages",
    "TextContent": "pi_core.messages",
    "ToolCall": "pi_core.messages",
    "ToolResultMessage": "pi_core.messages",
    "UserMessage": "pi_core.messages",
    "CommandContext": "pi_core.plugins.context",
    "ExecResult": "pi_core.plugins.context",
    "ExtensionContext": "pi_core.plugins.context",
    "Diagnostic": "pi_core.plugins.errors",
    "HookError": "pi_core.plugins.errors",
    "PluginActionError": "pi_core.plugins.errors",
    "PluginLoadError": "pi_core.plugins.errors",
    "PluginLoadFailed": "pi_core.plugins.errors",
    "EventBus": "pi_core.plugins.event_bus",
    "LoadOptions": "pi_core.plugins.manager",
    "LoadedPlugin": "pi_core.plugins.manager",
    "PluginManager": "pi_core.plugins.manager",
    "load_plugins": "pi_core.plugins.manager",
    "ExtensionUI": "pi_core.plugins.ui",
    "NoOpUI": "pi_core.plugins.ui",
    "ResourceLoader": "pi_core.resources.resource_loader",
    "SettingsManager": "pi_core.resources.settings",
    "create_agent_session": "pi_core.sdk",
    "SessionContext": "pi_core.session.context",
    "run_login": "pi_core.modes.interactive.standalone_login",
    "SessionManager": "pi_core.session.manager",
    "Tool": "pi_core.tools",
    "ToolArgumentsError": "pi_core.tools",
    "ToolResult": "pi_core.tools",
    "ToolUpdateCallback": "pi_core.tools",
    "define_tool": "pi_core.tools",
    "tool": "pi_core.tools.decorator",
}

__all__ = ["__version__", *_EXPORTS]


if not TYPE_CHECKING:  # hidden from type checkers, so a misspelt or internal name is an error

    def __getattr__(name: str) -> Any:
        """Import a public name on first use."""
        module = _EXPORTS.get(name)
        if module is None:
            raise AttributeError(f"module 'pi_core' has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        globals()[name] = value
        return value


def __dir__() -> list[str]:
    return sorted(__all__)
