"""Firing a Claude hook event: build its stdin JSON, run the matching hooks, combine replies."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from pi_plugin_claude.hooks.config import HookConfig
from pi_plugin_claude.hooks.outcome import HookOutcome, combine
from pi_plugin_claude.hooks.runner import HookReply, run_command_hook

HookSource = Callable[[str, dict[str, Any], "str | None"], Awaitable[list[HookReply]]]
"""Another source of hook replies, e.g. pi-claude's SDK `hook_callback`s:
`(event, payload, match_value) -> replies` (a JSON reply has exit_code 0 and `output`)."""

MATCH_FIELDS: dict[str, str] = {
    "PreToolUse": "tool_name",
    "PostToolUse": "tool_name",
    "PostToolUseFailure": "tool_name",
    "PermissionRequest": "tool_name",
    "SessionStart": "source",
    "SessionEnd": "reason",
    "PreCompact": "trigger",
    "Notification": "notification_type",
    "SubagentStart": "agent_type",
    "SubagentStop": "agent_type",
}
"""The payload field each event's matcher is tested against (others match every matcher)."""


@dataclass
class ClaudeHooks:
    """The hooks of one session: settings commands plus any extra sources."""

    config: HookConfig
    cwd: str
    session_id: str = ""
    transcript_path: str = ""
    permission_mode: Callable[[], str] = lambda: "default"
    sources: list[HookSource] = field(default_factory=list)

    def payload(self, event: str, fields: dict[str, Any]) -> dict[str, Any]:
        """The JSON a hook reads on stdin: the common fields, then the event's own."""
        return {
            "session_id": self.session_id,
            "transcript_path": self.transcript_path,
            "cwd": self.cwd,
            "permission_mode": self.permission_mode(),
            "hook_event_name": event,
            **fields,
        }

    def has(self, event: str) -> bool:
        """Whether anything could answer `event` (so a caller can skip building its payload)."""
        return bool(self.sources) or bool(self.config.events.get(event))

    async def fire(self, event: str, fields: dict[str, Any]) -> HookOutcome:
        """Run every matching hook for `event` at once and combine their replies."""
        payload = self.payload(event, fields)
        field_name = MATCH_FIELDS.get(event)
        value = payload.get(field_name) if field_name else None
        match_value = value if isinstance(value, str) else None
        commands = (
            self.config.commands_for(event, match_value)
            if field_name
            else (self.config.commands_for(event, None))
        )
        env = {"CLAUDE_CODE_SESSION_ID": self.session_id} if self.session_id else {}
        runs: list[Awaitable[HookReply | list[HookReply]]] = [
            run_command_hook(command, payload, self.cwd, env) for command in commands
        ]
        runs += [source(event, payload, match_value) for source in self.sources]
        replies: list[HookReply] = []
        for result in await asyncio.gather(*runs):
            replies += result if isinstance(result, list) else [result]
        tool_name = payload.get("tool_name") if field_name == "tool_name" else None
        return combine(event, replies, tool_name if isinstance(tool_name, str) else None)
