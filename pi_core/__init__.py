"""pi for Python: the public API. Everything not exported here is internal.

Names load lazily, so `import pi_core` (and `pi --version`) stays fast. The imports under
TYPE_CHECKING use `X as X` so type checkers see them as exported (plugins run mypy --strict).
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
        ModelCost as ModelCost,
        ProviderConfig as ProviderConfig,
        ProviderModelConfig as ProviderModelConfig,
    )
    from pi_core.ai.registry import (
        MissingApiKeyError as MissingApiKeyError,
        ModelRegistry as ModelRegistry,
        UnknownModelError as UnknownModelError,
    )
    from pi_core.events import (
        AfterProviderResponseEvent as AfterProviderResponseEvent,
        AgentEndEvent as AgentEndEvent,
        AgentStartEvent as AgentStartEvent,
        BashResult as BashResult,
        BashToolCallEvent as BashToolCallEvent,
        BashToolResultEvent as BashToolResultEvent,
        BeforeAgentStartEvent as BeforeAgentStartEvent,
        BeforeAgentStartOutcome as BeforeAgentStartOutcome,
        BeforeAgentStartResult as BeforeAgentStartResult,
        BeforeProviderRequestEvent as BeforeProviderRequestEvent,
        BranchSummary as BranchSummary,
        ContextEvent as ContextEvent,
        ContextResult as ContextResult,
        CustomToolCallEvent as CustomToolCallEvent,
        CustomToolResultEvent as CustomToolResultEvent,
        EditToolCallEvent as EditToolCallEvent,
        EditToolResultEvent as EditToolResultEvent,
        FindToolCallEvent as FindToolCallEvent,
        FindToolResultEvent as FindToolResultEvent,
        GrepToolCallEvent as GrepToolCallEvent,
        GrepToolResultEvent as GrepToolResultEvent,
        InjectedMessage as InjectedMessage,
        InputContinue as InputContinue,
        InputEvent as InputEvent,
        InputHandled as InputHandled,
        InputResult as InputResult,
        InputSource as InputSource,
        InputTransform as InputTransform,
        LsToolCallEvent as LsToolCallEvent,
        LsToolResultEvent as LsToolResultEvent,
        MessageEndEvent as MessageEndEvent,
        MessageEndResult as MessageEndResult,
        MessageStartEvent as MessageStartEvent,
        MessageUpdateEvent as MessageUpdateEvent,
        ModelSelectEvent as ModelSelectEvent,
        ModelSelectSource as ModelSelectSource,
        ReadToolCallEvent as ReadToolCallEvent,
        ReadToolResultEvent as ReadToolResultEvent,
        ResourcesDiscoverEvent as ResourcesDiscoverEvent,
        ResourcesDiscoverResult as ResourcesDiscoverResult,
        SessionBeforeCompactEvent as SessionBeforeCompactEvent,
        SessionBeforeCompactResult as SessionBeforeCompactResult,
        SessionBeforeForkEvent as SessionBeforeForkEvent,
        SessionBeforeForkResult as SessionBeforeForkResult,
        SessionBeforeSwitchEvent as SessionBeforeSwitchEvent,
        SessionBeforeSwitchResult as SessionBeforeSwitchResult,
        SessionBeforeTreeEvent as SessionBeforeTreeEvent,
        SessionBeforeTreeResult as SessionBeforeTreeResult,
        SessionCompactEvent as SessionCompactEvent,
        SessionForkEvent as SessionForkEvent,
        SessionShutdownEvent as SessionShutdownEvent,
        SessionStartEvent as SessionStartEvent,
        SessionSwitchEvent as SessionSwitchEvent,
        SessionTreeEvent as SessionTreeEvent,
        ThinkingLevelSelectEvent as ThinkingLevelSelectEvent,
        ToolCallEvent as ToolCallEvent,
        ToolCallResult as ToolCallResult,
        ToolExecutionEndEvent as ToolExecutionEndEvent,
        ToolExecutionStartEvent as ToolExecutionStartEvent,
        ToolExecutionUpdateEvent as ToolExecutionUpdateEvent,
        ToolResultEvent as ToolResultEvent,
        ToolResultPatch as ToolResultPatch,
        TreePreparation as TreePreparation,
        TurnEndEvent as TurnEndEvent,
        TurnStartEvent as TurnStartEvent,
        UserBashEvent as UserBashEvent,
        UserBashResult as UserBashResult,
        WriteToolCallEvent as WriteToolCallEvent,
        WriteToolResultEvent as WriteToolResultEvent,
        make_tool_call_event as make_tool_call_event,
        make_tool_result_event as make_tool_result_event,
    )
    from pi_core.hookspecs import (
        hookimpl as hookimpl,
    )
    from pi_core.messages import (
        AgentMessage as AgentMessage,
        AssistantContent as AssistantContent,
        AssistantMessage as AssistantMessage,
        AssistantMessageEvent as AssistantMessageEvent,
        BashExecutionMessage as BashExecutionMessage,
        BranchSummaryMessage as BranchSummaryMessage,
        CompactionSummaryMessage as CompactionSummaryMessage,
        Cost as Cost,
        CustomMessage as CustomMessage,
        ImageContent as ImageContent,
        StopReason as StopReason,
        TextContent as TextContent,
        ThinkingContent as ThinkingContent,
        ToolCall as ToolCall,
        ToolResultMessage as ToolResultMessage,
        Usage as Usage,
        UserContent as UserContent,
        UserMessage as UserMessage,
        now_ms as now_ms,
        parse_agent_message as parse_agent_message,
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
        LoadedPlugin as LoadedPlugin,
        LoadOptions as LoadOptions,
        PluginManager as PluginManager,
        load_plugins as load_plugins,
    )
    from pi_core.plugins.ui import (
        ExtensionUI as ExtensionUI,
        NoOpUI as NoOpUI,
    )
    from pi_core.resources.loader import (
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
    from pi_core.session.manager import (
        SessionManager as SessionManager,
    )
    from pi_core.tools.inputs import (
        BashToolInput as BashToolInput,
        EditReplacement as EditReplacement,
        EditToolInput as EditToolInput,
        FindToolInput as FindToolInput,
        GrepToolInput as GrepToolInput,
        LsToolInput as LsToolInput,
        ReadToolInput as ReadToolInput,
        WriteToolInput as WriteToolInput,
    )
    from pi_core.tools.tool import (
        Tool as Tool,
        ToolArgumentsError as ToolArgumentsError,
        ToolResult as ToolResult,
        ToolUpdateCallback as ToolUpdateCallback,
        define_tool as define_tool,
    )

_EXPORTS: dict[str, str] = {
    "AgentSession": "pi_core.agent_session.session",
    "ToolSelection": "pi_core.agent_session.toolset",
    "create_agent_session": "pi_core.sdk",
    "SessionManager": "pi_core.session.manager",
    "SessionContext": "pi_core.session.context",
    "MissingApiKeyError": "pi_core.ai.registry",
    "ModelRegistry": "pi_core.ai.registry",
    "UnknownModelError": "pi_core.ai.registry",
    "AuthStorage": "pi_core.ai.auth",
    "Agent": "pi_core.agent.agent",
    "AgentOptions": "pi_core.agent.agent",
    "AgentState": "pi_core.agent.agent",
    "ResourceLoader": "pi_core.resources.loader",
    "SettingsManager": "pi_core.resources.settings",
    "hookimpl": "pi_core.hookspecs",
    "Tool": "pi_core.tools.tool",
    "ToolArgumentsError": "pi_core.tools.tool",
    "ToolResult": "pi_core.tools.tool",
    "ToolUpdateCallback": "pi_core.tools.tool",
    "define_tool": "pi_core.tools.tool",
    "BashToolInput": "pi_core.tools.inputs",
    "EditReplacement": "pi_core.tools.inputs",
    "EditToolInput": "pi_core.tools.inputs",
    "FindToolInput": "pi_core.tools.inputs",
    "GrepToolInput": "pi_core.tools.inputs",
    "LsToolInput": "pi_core.tools.inputs",
    "ReadToolInput": "pi_core.tools.inputs",
    "WriteToolInput": "pi_core.tools.inputs",
    "CommandContext": "pi_core.plugins.context",
    "ExecResult": "pi_core.plugins.context",
    "ExtensionContext": "pi_core.plugins.context",
    "ExtensionUI": "pi_core.plugins.ui",
    "NoOpUI": "pi_core.plugins.ui",
    "Diagnostic": "pi_core.plugins.errors",
    "HookError": "pi_core.plugins.errors",
    "PluginActionError": "pi_core.plugins.errors",
    "PluginLoadError": "pi_core.plugins.errors",
    "PluginLoadFailed": "pi_core.plugins.errors",
    "LoadOptions": "pi_core.plugins.manager",
    "LoadedPlugin": "pi_core.plugins.manager",
    "PluginManager": "pi_core.plugins.manager",
    "load_plugins": "pi_core.plugins.manager",
    "EventBus": "pi_core.plugins.event_bus",
    "AbortController": "pi_core.abort",
    "AbortError": "pi_core.abort",
    "AbortSignal": "pi_core.abort",
    "Model": "pi_core.ai.model",
    "ModelCost": "pi_core.ai.model",
    "ProviderConfig": "pi_core.ai.model",
    "ProviderModelConfig": "pi_core.ai.model",
    "AfterProviderResponseEvent": "pi_core.events",
    "AgentEndEvent": "pi_core.events",
    "AgentStartEvent": "pi_core.events",
    "BashResult": "pi_core.events",
    "BashToolCallEvent": "pi_core.events",
    "BashToolResultEvent": "pi_core.events",
    "BeforeAgentStartEvent": "pi_core.events",
    "BeforeAgentStartOutcome": "pi_core.events",
    "BeforeAgentStartResult": "pi_core.events",
    "BeforeProviderRequestEvent": "pi_core.events",
    "BranchSummary": "pi_core.events",
    "ContextEvent": "pi_core.events",
    "ContextResult": "pi_core.events",
    "CustomToolCallEvent": "pi_core.events",
    "CustomToolResultEvent": "pi_core.events",
    "EditToolCallEvent": "pi_core.events",
    "EditToolResultEvent": "pi_core.events",
    "FindToolCallEvent": "pi_core.events",
    "FindToolResultEvent": "pi_core.events",
    "GrepToolCallEvent": "pi_core.events",
    "GrepToolResultEvent": "pi_core.events",
    "InjectedMessage": "pi_core.events",
    "InputContinue": "pi_core.events",
    "InputEvent": "pi_core.events",
    "InputHandled": "pi_core.events",
    "InputResult": "pi_core.events",
    "InputSource": "pi_core.events",
    "InputTransform": "pi_core.events",
    "LsToolCallEvent": "pi_core.events",
    "LsToolResultEvent": "pi_core.events",
    "MessageEndEvent": "pi_core.events",
    "MessageEndResult": "pi_core.events",
    "MessageStartEvent": "pi_core.events",
    "MessageUpdateEvent": "pi_core.events",
    "ModelSelectEvent": "pi_core.events",
    "ModelSelectSource": "pi_core.events",
    "ReadToolCallEvent": "pi_core.events",
    "ReadToolResultEvent": "pi_core.events",
    "ResourcesDiscoverEvent": "pi_core.events",
    "ResourcesDiscoverResult": "pi_core.events",
    "SessionBeforeCompactEvent": "pi_core.events",
    "SessionBeforeCompactResult": "pi_core.events",
    "SessionBeforeForkEvent": "pi_core.events",
    "SessionBeforeForkResult": "pi_core.events",
    "SessionBeforeSwitchEvent": "pi_core.events",
    "SessionBeforeSwitchResult": "pi_core.events",
    "SessionBeforeTreeEvent": "pi_core.events",
    "SessionBeforeTreeResult": "pi_core.events",
    "SessionCompactEvent": "pi_core.events",
    "SessionForkEvent": "pi_core.events",
    "SessionShutdownEvent": "pi_core.events",
    "SessionStartEvent": "pi_core.events",
    "SessionSwitchEvent": "pi_core.events",
    "SessionTreeEvent": "pi_core.events",
    "ThinkingLevelSelectEvent": "pi_core.events",
    "ToolCallEvent": "pi_core.events",
    "ToolCallResult": "pi_core.events",
    "ToolExecutionEndEvent": "pi_core.events",
    "ToolExecutionStartEvent": "pi_core.events",
    "ToolExecutionUpdateEvent": "pi_core.events",
    "ToolResultEvent": "pi_core.events",
    "ToolResultPatch": "pi_core.events",
    "TreePreparation": "pi_core.events",
    "TurnEndEvent": "pi_core.events",
    "TurnStartEvent": "pi_core.events",
    "UserBashEvent": "pi_core.events",
    "UserBashResult": "pi_core.events",
    "WriteToolCallEvent": "pi_core.events",
    "WriteToolResultEvent": "pi_core.events",
    "make_tool_call_event": "pi_core.events",
    "make_tool_result_event": "pi_core.events",
    "AgentMessage": "pi_core.messages",
    "AssistantContent": "pi_core.messages",
    "AssistantMessage": "pi_core.messages",
    "AssistantMessageEvent": "pi_core.messages",
    "BashExecutionMessage": "pi_core.messages",
    "BranchSummaryMessage": "pi_core.messages",
    "CompactionSummaryMessage": "pi_core.messages",
    "Cost": "pi_core.messages",
    "CustomMessage": "pi_core.messages",
    "ImageContent": "pi_core.messages",
    "StopReason": "pi_core.messages",
    "TextContent": "pi_core.messages",
    "ThinkingContent": "pi_core.messages",
    "ToolCall": "pi_core.messages",
    "ToolResultMessage": "pi_core.messages",
    "Usage": "pi_core.messages",
    "UserContent": "pi_core.messages",
    "UserMessage": "pi_core.messages",
    "now_ms": "pi_core.messages",
    "parse_agent_message": "pi_core.messages",
}

__all__ = ["__version__", *_EXPORTS]


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
