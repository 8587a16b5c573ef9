"""What plugins register at load time, and the merged view the session uses."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from pi_core.ai.model import ProviderConfig
from pi_core.builtin_commands import BUILTIN_COMMAND_NAMES
from pi_core.plugins.errors import Diagnostic
from pi_core.plugins.tool_check import check_tool
from pi_core.tools.operations import ToolOperations
from pi_core.tools.tool import Tool

if TYPE_CHECKING:
    from pi_core.ai.oauth.provider import LoginProvider

BUILTIN_COMMANDS = frozenset(BUILTIN_COMMAND_NAMES)
"""Slash commands pi itself owns; a plugin command of the same name is skipped."""

FlagType = Literal["boolean", "string"]


@dataclass(frozen=True)
class Command:
    """A slash command: `/name args` runs `handler(args, ctx)`."""

    name: str
    handler: Callable[..., Any]
    description: str | None = None
    get_argument_completions: Callable[[str], Any] | None = None
    plugin: str = ""


@dataclass(frozen=True)
class Flag:
    """A command-line flag a plugin declared; its value is read with `ctx.get_flag(name)`."""

    name: str
    type: FlagType = "boolean"
    default: bool | str | None = None
    description: str | None = None
    plugin: str = ""


@dataclass(frozen=True)
class Shortcut:
    """A REPL key binding: `handler(ctx)` runs on `key`."""

    key: str
    handler: Callable[..., Any]
    description: str | None = None
    plugin: str = ""


@dataclass(frozen=True)
class CompletionSource:
    """`@` mentions a plugin offers in the REPL, and how a chosen one becomes text.

    `complete(query)` returns entries (`{"value", "label", "description"}` dicts or strings)
    whose value is inserted as `@value`; when the message is sent, `resolve(value)` (sync or
    async) returns the text attached to the prompt, or None for a value that is not its own.
    """

    name: str
    complete: Callable[[str], Any]
    resolve: Callable[[str], Any] | None = None
    description: str | None = None
    plugin: str = ""


@dataclass(frozen=True)
class MessageRenderer:
    """How messages of one `custom_type` are drawn in the REPL."""

    custom_type: str
    renderer: Callable[..., Any]
    plugin: str = ""


@dataclass(frozen=True)
class ProviderRegistration:
    """A provider a plugin registered, applied to the model registry when the session binds."""

    name: str
    config: ProviderConfig
    plugin: str = ""


@dataclass(frozen=True)
class RegisteredTool:
    """A tool and the plugin that registered it."""

    tool: Tool[Any]
    plugin: str = ""


def _check_tool(tool: Any) -> Tool[Any]:
    check_tool(tool)
    checked: Tool[Any] = tool
    return checked


@dataclass
class PluginRegistrations:
    """Everything one plugin registered, collected through the `register` callables."""

    plugin: str
    tools: list[RegisteredTool] = field(default_factory=list)
    commands: list[Command] = field(default_factory=list)
    flags: list[Flag] = field(default_factory=list)
    shortcuts: list[Shortcut] = field(default_factory=list)
    renderers: list[MessageRenderer] = field(default_factory=list)
    providers: list[ProviderRegistration] = field(default_factory=list)
    completions: list[CompletionSource] = field(default_factory=list)
    login_providers: list[LoginProvider] = field(default_factory=list)
    tool_operations: list[ToolOperations] = field(default_factory=list)

    def register_fn(self, hook: str) -> Callable[..., None]:
        """Return the `register` callable handed to one registration hook."""
        table: dict[str, Callable[..., None]] = {
            "register_tools": self._tool,
            "register_commands": self._command,
            "register_flags": self._flag,
            "register_shortcuts": self._shortcut,
            "register_message_renderers": self._renderer,
            "register_providers": self._provider,
            "register_completions": self._completion,
            "register_login_providers": self._login_provider,
            "register_tool_operations": self._tool_operations,
        }
        return table[hook]

    def summary(self) -> dict[str, list[str]]:
        """Return the names of what was registered, by kind (for `pi plugins`)."""
        return {
            "tools": [r.tool.name for r in self.tools],
            "commands": [c.name for c in self.commands],
            "flags": [f.name for f in self.flags],
            "shortcuts": [s.key for s in self.shortcuts],
            "renderers": [r.custom_type for r in self.renderers],
            "providers": [p.name for p in self.providers],
            "completions": [c.name for c in self.completions],
            "logins": [p.id for p in self.login_providers],
            "tool_operations": [k for ops in self.tool_operations for k in ops.kinds()],
        }

    def _tool(self, tool: Tool[Any]) -> None:
        self.tools.append(RegisteredTool(_check_tool(tool), self.plugin))

    def _command(
        self,
        name: str,
        handler: Callable[..., Any],
        description: str | None = None,
        get_argument_completions: Callable[[str], Any] | None = None,
    ) -> None:
        if not name or not callable(handler):
            raise TypeError("register(name, handler) needs a command name and a callable handler")
        name = name.removeprefix("/")
        self.commands.append(
            Command(name, handler, description, get_argument_completions, self.plugin)
        )

    def _flag(
        self,
        name: str,
        type: FlagType = "boolean",
        default: bool | str | None = None,
        description: str | None = None,
    ) -> None:
        if type not in ("boolean", "string"):
            raise TypeError(f"flag {name!r}: type must be 'boolean' or 'string', not {type!r}")
        self.flags.append(Flag(name.removeprefix("--"), type, default, description, self.plugin))

    def _shortcut(
        self, key: str, handler: Callable[..., Any], description: str | None = None
    ) -> None:
        if not callable(handler):
            raise TypeError(f"shortcut {key!r}: handler must be callable")
        self.shortcuts.append(Shortcut(key, handler, description, self.plugin))

    def _renderer(self, custom_type: str, renderer: Callable[..., Any]) -> None:
        if not callable(renderer):
            raise TypeError(f"renderer for {custom_type!r} must be callable")
        self.renderers.append(MessageRenderer(custom_type, renderer, self.plugin))

    def _completion(
        self,
        name: str,
        complete: Callable[[str], Any],
        resolve: Callable[[str], Any] | None = None,
        description: str | None = None,
    ) -> None:
        if not callable(complete) or (resolve is not None and not callable(resolve)):
            raise TypeError(f"completions {name!r}: complete and resolve must be callable")
        self.completions.append(CompletionSource(name, complete, resolve, description, self.plugin))

    def _login_provider(self, provider: LoginProvider) -> None:
        from pi_core.ai.oauth.provider import LoginProvider

        if not isinstance(provider, LoginProvider):
            raise TypeError("register_login_providers: register() takes a LoginProvider")
        self.login_providers.append(provider)

    def _tool_operations(self, operations: ToolOperations) -> None:
        if not isinstance(operations, ToolOperations):
            raise TypeError("register_tool_operations: register() takes a ToolOperations")
        self.tool_operations.append(operations)

    def _provider(self, name: str, config: ProviderConfig | dict[str, Any]) -> None:
        if not isinstance(config, ProviderConfig):
            config = ProviderConfig.model_validate(config)
        self.providers.append(ProviderRegistration(name, config, self.plugin))


@dataclass
class Registry:
    """The merged registrations of all loaded plugins, in load order, with conflict diagnostics."""

    tools: dict[str, RegisteredTool] = field(default_factory=dict)
    commands: dict[str, Command] = field(default_factory=dict)
    flags: dict[str, Flag] = field(default_factory=dict)
    shortcuts: dict[str, Shortcut] = field(default_factory=dict)
    renderers: dict[str, MessageRenderer] = field(default_factory=dict)
    providers: list[ProviderRegistration] = field(default_factory=list)
    completions: dict[str, CompletionSource] = field(default_factory=dict)
    login_providers: list[LoginProvider] = field(default_factory=list)
    tool_operations: ToolOperations = field(default_factory=ToolOperations)
    """Per kind, the operations of the last plugin that supplied that kind."""
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @classmethod
    def merge(cls, registrations: list[PluginRegistrations]) -> Registry:
        """Combine plugins' registrations: a later plugin wins a name, and is told so."""
        registry = cls()
        for regs in registrations:
            for tool in regs.tools:
                registry._put(registry.tools, tool.tool.name, tool, "tool", tool.plugin)
            for command in regs.commands:
                if command.name in BUILTIN_COMMANDS:
                    registry._warn(
                        f"command /{command.name} of plugin {command.plugin!r} is skipped: "
                        "it is a built-in command",
                        command.plugin,
                    )
                    continue
                registry._put(registry.commands, command.name, command, "command", command.plugin)
            for flag in regs.flags:
                registry._put(registry.flags, flag.name, flag, "flag", flag.plugin)
            for shortcut in regs.shortcuts:
                registry._put(
                    registry.shortcuts, shortcut.key, shortcut, "shortcut", shortcut.plugin
                )
            for renderer in regs.renderers:
                registry._put(
                    registry.renderers, renderer.custom_type, renderer, "renderer", renderer.plugin
                )
            registry.providers.extend(regs.providers)
            registry.login_providers.extend(regs.login_providers)
            for operations in regs.tool_operations:
                registry.tool_operations = operations.or_else(registry.tool_operations)
            for source in regs.completions:
                registry._put(registry.completions, source.name, source, "completions",
                              source.plugin)  # fmt: skip
        return registry

    def _put(self, table: dict[str, Any], key: str, value: Any, kind: str, plugin: str) -> None:
        previous = table.get(key)
        if previous is not None:
            self._warn(
                f"{kind} {key!r} of plugin {previous.plugin!r} is replaced by plugin {plugin!r}",
                plugin,
            )
        table[key] = value

    def _warn(self, message: str, source: str) -> None:
        self.diagnostics.append(Diagnostic(message, source))
