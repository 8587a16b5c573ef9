"""The `hooks` section of Claude's settings: events, matchers and command entries."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

HOOK_EVENTS = (
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "UserPromptSubmit",
    "Stop",
    "SubagentStop",
    "SubagentStart",
    "SessionStart",
    "SessionEnd",
    "PreCompact",
    "Notification",
    "PermissionRequest",
)
"""The events Claude Code 2.1.5 fires (and so the events settings may name)."""

DEFAULT_TIMEOUT_SECONDS = 60.0
"""How long a command hook may run when its entry gives no `timeout` (Claude's default)."""


@dataclass(frozen=True)
class CommandHook:
    """One `{"type": "command", "command": ..., "timeout": s}` entry."""

    command: str
    timeout: float = DEFAULT_TIMEOUT_SECONDS


@dataclass(frozen=True)
class HookMatcher:
    """A matcher (None matches everything) and the commands it runs."""

    matcher: str | None
    hooks: tuple[CommandHook, ...]

    def matches(self, value: str | None) -> bool:
        """Match the tool name (or source, trigger …): `*`/empty match all, else a regex."""
        if self.matcher in (None, "", "*"):
            return True
        if value is None:
            return False
        if re.fullmatch(r"[\w|]+", self.matcher):
            return value in self.matcher.split("|")
        try:
            return re.fullmatch(self.matcher, value) is not None
        except re.error:
            return self.matcher == value


@dataclass
class HookConfig:
    """Every event's matchers, parsed from the merged settings; bad entries become problems."""

    events: dict[str, list[HookMatcher]] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    @classmethod
    def parse(cls, hooks: dict[str, list[dict[str, Any]]]) -> HookConfig:
        """Parse `{Event: [{matcher, hooks: [{type, command, timeout}]}]}`."""
        config = cls()
        for event, matchers in hooks.items():
            if event not in HOOK_EVENTS:
                config.problems.append(f"hooks: unknown event {event!r}; ignored")
                continue
            for entry in matchers:
                commands = []
                for hook in entry.get("hooks") or []:
                    if not isinstance(hook, dict) or hook.get("type", "command") != "command":
                        config.problems.append(f"hooks.{event}: only command hooks are supported")
                        continue
                    command = hook.get("command")
                    if not isinstance(command, str) or not command.strip():
                        config.problems.append(f"hooks.{event}: a hook has no command")
                        continue
                    timeout = hook.get("timeout")
                    seconds = (
                        float(timeout)
                        if isinstance(timeout, int | float) and timeout > 0
                        else DEFAULT_TIMEOUT_SECONDS
                    )
                    commands.append(CommandHook(command, seconds))
                matcher = entry.get("matcher")
                if commands:
                    config.events.setdefault(event, []).append(
                        HookMatcher(matcher if isinstance(matcher, str) else None, tuple(commands))
                    )
        return config

    def commands_for(self, event: str, value: str | None) -> list[CommandHook]:
        """The commands to run for `event` whose matcher accepts `value`, without duplicates."""
        found: list[CommandHook] = []
        for matcher in self.events.get(event, []):
            if matcher.matches(value):
                found += [hook for hook in matcher.hooks if hook not in found]
        return found
